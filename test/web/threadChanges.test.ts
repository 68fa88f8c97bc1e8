import { expect } from 'chai';
import type { Thread } from '../../src/web/api/types';
import { markOf, threadChanges, type ThreadMark } from '../../src/web/state/threadChanges';

const thread = (
  id: string,
  status: Thread['status'],
  lastTurnStatus: Thread['lastTurnStatus'],
  pendingApprovalIds: string[] = [],
): Thread => ({
  id,
  projectId: 'proj_1',
  environmentId: 'env_1',
  hostId: 'host_1',
  provider: 'pi',
  model: 'fake/fake-model',
  title: `Thread ${id}`,
  createdAt: '2026-11-24T00:00:00.000Z',
  workspace: { kind: 'checkout', path: '/p', branch: null, baseRef: null, baseCommit: null, state: 'ready' },
  archived: false,
  keepAgentRunning: false,
  agent: 'running',
  status,
  lastTurnStatus,
  runtime: { displayStatus: status, hostReconnectGraceExpiresAt: null, activity: 'idle', pendingApprovalIds },
});

const marks = (...threads: Thread[]): Map<string, ThreadMark> => new Map(threads.map((one) => [one.id, markOf(one)]));

/** What the page tells a user about from two polls of the thread list (issue 31). */
describe('the page reads turns that ended and questions that came from two polls of the lists (issue 31)', () => {
  it('a working thread gone idle is a completed or failed turn; an interrupted one says nothing', () => {
    const before = marks(thread('a', 'active', null), thread('b', 'active', 'completed'), thread('c', 'active', null));
    const after = [thread('a', 'idle', 'completed'), thread('b', 'idle', 'failed'), thread('c', 'idle', 'interrupted')];
    expect(threadChanges(before, after)).to.deep.equal([
      { threadId: 'a', title: 'Thread a', kind: 'completed' },
      { threadId: 'b', title: 'Thread b', kind: 'failed' },
    ]);
  });

  it('a turn that started and ended between two polls is seen when its outcome differs from the last one', () => {
    expect(threadChanges(marks(thread('a', 'idle', null)), [thread('a', 'idle', 'completed')])).to.have.length(1);
    expect(threadChanges(marks(thread('a', 'idle', 'completed')), [thread('a', 'idle', 'completed')])).to.deep.equal([]);
  });

  it('a new question is an approval; one already known, or a thread the page had not listed yet, says nothing', () => {
    const before = marks(thread('a', 'active', null, ['ap-1']));
    const after = [thread('a', 'active', null, ['ap-1', 'ap-2']), thread('new', 'idle', 'failed', ['ap-9'])];
    expect(threadChanges(before, after)).to.deep.equal([{ threadId: 'a', title: 'Thread a', kind: 'approval' }]);
    expect(threadChanges(marks(...after), after)).to.deep.equal([]);
  });
});
