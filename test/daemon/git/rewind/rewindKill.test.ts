import { expect } from 'chai';
import { realpathSync } from 'node:fs';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';
import { runRewindKillRounds } from './rewindKillRounds';

/** Eight rounds here; each is a daemon start (its recovery), a check, and a revert or unrevert killed at a random moment. */
describe('rewind: SIGKILL of the daemon at random moments of revert and unrevert (issue 39)', function () {
  this.timeout(300_000);
  const tempDir = suiteTempDirs();

  it('after each restart the step happened once or not at all, the rows say which, no index or lock is left, fsck is clean', async () => {
    const root = realpathSync(await tempDir('ats-rewind-kill-'));
    const result = await runRewindKillRounds({ root, rounds: 8, maxDelayMs: 1_500 });
    expect(result.rounds).to.equal(8);
    console.log(`      ${JSON.stringify(result)}`);
  });
});
