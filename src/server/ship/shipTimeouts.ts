/**
 * How long the server waits for the host's ship commands, beyond the ordinary `hostCommandTimeoutMs`. The host
 * bounds every push and forge command by its own `SHIP_TIMEOUT_MS` (2 min, src/daemon/git/ship/shipDeps.ts)
 * and answers `git_timeout`; the server waits a little longer so that answer, not its own timeout, is what a
 * client sees. A commit of thousands of files reads them all once.
 */
export const COMMIT_TIMEOUT_MS = 5 * 60_000;
export const PUSH_TIMEOUT_MS = 3 * 60_000;
/** A pull request may push first, then runs the forge CLI twice (create, view): each bounded by the host. */
export const PULL_REQUEST_TIMEOUT_MS = 7 * 60_000;
