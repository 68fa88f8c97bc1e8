import { expect } from 'chai';
import { realpathSync } from 'node:fs';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { runGitKillRounds } from './gitKillRounds';

/** Six rounds here (5 s a round on a loaded 2-core machine, mostly the child's start); `npm run bench:git-kill` runs fifty with the same invariants. */
describe('git wing: SIGKILL at random moments of create, archive, restore and delete', function () {
  this.timeout(120_000);
  const tempDir = suiteTempDirs();

  it('leaks no worktree, loses no change, keeps git fsck clean and the user worktree untouched', async () => {
    const root = realpathSync(await tempDir('ats-git-kill-'));
    const result = await runGitKillRounds({ root, rounds: 6, maxDelayMs: 400 });
    expect(result.rounds).to.equal(6);
  });
});
