import { expect } from 'chai';
import { defaultBranchOf, slugOf } from '../../../src/server/workspaces/branchName';

describe('server: a worktree thread’s default branch name (issue 38)', () => {
  const cases: Array<[string, string]> = [
    ['Fix the login bug', 'fix-the-login-bug'],
    ['--upload-pack=evil ../../etc', 'upload-pack-evil-etc'],
    ['Ünïcödé  Tïtlé!', 'unicode-title'],
    ['日本語', ''],
    ['a'.repeat(80), 'a'.repeat(40)],
  ];
  for (const [title, slug] of cases) {
    it(`slugs ${JSON.stringify(title.slice(0, 30))} to only [a-z0-9-]`, () => expect(slugOf(title)).to.equal(slug));
  }

  it('is <prefix>/<short id>-<slug>, or <prefix>/<short id> when the title has no slug', () => {
    expect(defaultBranchOf('thr_0123456789abcdef0123', 'Add tests')).to.equal('ats/01234567-add-tests');
    expect(defaultBranchOf('thr_0123456789abcdef0123', '日本語', 'team')).to.equal('team/01234567');
  });
});
