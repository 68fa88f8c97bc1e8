import { expect } from 'chai';
import { policyVerdict } from '../../../src/daemon/approvals/approvalPolicy';
import type { ApprovalOption, ApprovalQuestion, PermissionMode } from '../../../src/protocol/approvals';

const allowOnce: ApprovalOption = { optionId: 'allow-once', name: 'Allow', kind: 'allow_once' };
const allowAlways: ApprovalOption = { optionId: 'always', name: 'Always', kind: 'allow_always' };
const reject: ApprovalOption = { optionId: 'reject', name: 'Reject', kind: 'reject_once' };
const folder = '/work/project';

const question = (kind: string, paths: string[], options = [reject, allowAlways, allowOnce]): ApprovalQuestion => ({
  subject: { kind, title: `${kind} ${paths.join(' ')}`, paths },
  options,
});

describe('approvals: the permission modes as a policy', () => {
  const cases: [PermissionMode, ApprovalQuestion, string | 'ask'][] = [
    ['full-access', question('execute', []), 'allow-once'],
    ['full-access', question('execute', [], [reject, allowAlways]), 'always'],
    ['accept-edits', question('edit', ['/work/project/src/a.ts']), 'allow-once'],
    ['accept-edits', question('delete', ['/work/project/old.txt']), 'allow-once'],
    ['accept-edits', question('move', ['/work/project/a', '/work/project/b/c']), 'allow-once'],
    ['accept-edits', question('edit', ['src/relative.ts']), 'allow-once'],
    ['accept-edits', question('edit', ['/work/project/..file']), 'allow-once'],
    ['accept-edits', question('move', ['/work/project/a', '/tmp/b']), 'ask'],
    ['accept-edits', question('edit', ['/work/project/../other/a.ts']), 'ask'],
    ['accept-edits', question('edit', ['/work/project-other/a.ts']), 'ask'],
    ['accept-edits', question('delete', ['/work/project']), 'ask'],
    ['accept-edits', question('edit', []), 'ask'],
    ['accept-edits', question('execute', []), 'ask'],
    ['accept-edits', question('read', ['/work/project/a.ts']), 'ask'],
    ['ask', question('edit', ['/work/project/a.ts']), 'ask'],
    ['ask', question('execute', []), 'ask'],
  ];
  for (const [mode, asked, expected] of cases) {
    it(`${mode}: ${asked.subject.title} (${asked.options.map((o) => o.kind).join(',')}) → ${expected}`, () => {
      const verdict = policyVerdict(mode, asked, folder);
      if (expected === 'ask') expect(verdict).to.deep.equal({ kind: 'ask' });
      else expect(verdict).to.include({ kind: 'allow' }).and.to.have.nested.property('option.optionId', expected);
    });
  }

  it('refuses with a reason when the mode allows it but the agent offers no allow option', () => {
    const verdict = policyVerdict('full-access', question('execute', [], [reject]), folder);
    expect(verdict.kind).to.equal('refuse');
    expect((verdict as { reason: string }).reason).to.contain('no option that allows it');
  });
});
