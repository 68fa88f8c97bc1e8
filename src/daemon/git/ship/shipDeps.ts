import type { ShipRowData, ShipRowType } from '../../../protocol/shipRows';
import type { RepoLocks } from '../repoLocks';

/** What the ship commands need from the daemon: its folders, the repository locks, and a way to write a row. */
export interface ShipDeps {
  /** The daemon's data dir: journals (and a commit's copy of the index) go to `ship/` under it. */
  dataDir: string;
  locks: RepoLocks;
  /** Writes a row into the thread's log (the daemon's own `thread.ingest`); a failure is logged, never thrown. */
  announce<T extends ShipRowType>(threadId: string, type: T, data: ShipRowData<T>): Promise<void>;
  log(message: string): void;
  remote: RemoteLimits;
}

/** How commands that reach a remote run: their deadline, and what the daemon adds to their environment. */
export interface RemoteLimits {
  /** How long a push, `ls-remote` or forge command may run before it is killed (`SHIP_TIMEOUT_MS`). */
  timeoutMs: number;
  /** E.g. a `PATH` naming where `gh` is; the tests' forge stand-in is found this way. */
  env?: Record<string, string>;
}

/** A push, or a forge CLI call, that has not answered in two minutes is stuck (a dead network, a hung helper). */
export const SHIP_TIMEOUT_MS = 2 * 60_000;
