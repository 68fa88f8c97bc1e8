import { expect } from 'chai';
import { realpathSync } from 'node:fs';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';
import { runShipKillRounds } from './shipKillRounds';

/** Eight rounds here; `npm run bench:ship-kill` runs fifty with the same checks. */
describe('git.commit / git.push: SIGKILL of the daemon in the middle (issue 39)', function () {
  this.timeout(180_000);
  const tempDir = suiteTempDirs();

  it('happened once or not at all, the thread’s rows say which, no index.lock and git fsck clean', async () => {
    const root = realpathSync(await tempDir('ats-ship-kill-'));
    const result = await runShipKillRounds({ root, rounds: 8, maxDelayMs: 4_000 });
    expect(result.rounds).to.equal(8);
    console.log(`      ${JSON.stringify(result)}`);
  });
});
