/**
 * `npm run bench:git-kill`: fifty rounds (ROUNDS) of the git wing's kill test (test/daemon/git/gitKillRounds.ts):
 * SIGKILL at random moments of create, archive, restore and delete, then start-up recovery, the retried
 * command, prune and the invariants (no leaked worktree, no lost change, `git fsck` clean, the user's
 * worktree untouched). `CRASH_SEED` replays a run.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runGitKillRounds } from '../test/daemon/git/gitKillRounds';

const ROUNDS = Number(process.env.ROUNDS ?? 50);

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'bench-git-kill-')));
  const started = Date.now();
  try {
    const result = await runGitKillRounds({ root, rounds: ROUNDS, maxDelayMs: 500 });
    console.log(
      `git kill rounds: ${result.rounds} rounds, ${result.killedMidCommand} killed mid-command, ops ${JSON.stringify(result.ops)}; ` +
        `0 leaked worktrees, 0 lost changes, fsck clean (${result.seed}, ${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
