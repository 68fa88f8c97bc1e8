/**
 * `npm run bench:ship-kill`: fifty rounds (ROUNDS) of the ship kill test (test/daemon/git/ship/shipKillRounds.ts):
 * SIGKILL at random moments of a commit of 150 new files or a push, then the start-up recovery and the checks
 * (happened once or not at all, the rows say which, no index.lock, `git fsck` clean). `CRASH_SEED` replays a run.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runShipKillRounds } from '../test/daemon/git/ship/shipKillRounds';

const ROUNDS = Number(process.env.ROUNDS ?? 50);

async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'bench-ship-kill-')));
  const started = Date.now();
  try {
    const result = await runShipKillRounds({ root, rounds: ROUNDS, maxDelayMs: 4_000 });
    console.log(`ship kill rounds: ${JSON.stringify(result)} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
