import { expect } from 'chai';
import { from, lastValueFrom, toArray } from 'rxjs';
import type { Moment } from '../../src/notifications/moment';
import { pickMoments, SUMMARY_MAX_CHARS } from '../../src/notifications/pickMoments';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { storedRows } from '../web/storedRows';

const { row } = storedRows('turn_1');
const answer = (text: string) => row('item/completed', { item: { type: 'agentMessage', id: 'm', text } });
const turnEnd = (status: string, error?: string) =>
  row('turn/completed', { status, providerCheckpointId: 'c', ...(error ? { error: { message: error } } : {}) });
const asked = (approvalId: string, command?: string) =>
  row('approval/requested', {
    approvalId,
    subject: { kind: 'execute', title: 'Run a command', paths: [], ...(command ? { command } : {}) },
    options: [],
    permissionMode: 'ask',
  });
const resolved = (approvalId: string) => row('approval/resolved', { approvalId, decidedBy: 'policy' });

const moments = (rows: StoredThreadEvent[]): Promise<Moment[]> => lastValueFrom(from(rows).pipe(pickMoments(), toArray()));
const brief = (moment: Moment) => (moment.kind === 'notable' ? `${moment.event}: ${moment.summary}` : `answered ${moment.approvalId}`);

describe('pickMoments() (issue 31: which stored rows a notification is sent for)', () => {
  it('a completed turn, with the agent’s last answer as its summary', async () => {
    const picked = await moments([
      answer('first'),
      row('item/agentMessage/delta', { itemId: 'm', delta: 'x' }),
      answer('All tests\npass.'),
      turnEnd('completed'),
    ]);
    expect(picked.map(brief)).to.deep.equal(['turn.completed: All tests pass.']);
  });

  it('a failed turn and a turn whose run was lost say why; a stop (interrupted, no reason) is not notified', async () => {
    const picked = await moments([
      turnEnd('failed', 'No API key for anthropic'),
      turnEnd('interrupted'),
      turnEnd('interrupted', 'the run was lost'),
    ]);
    expect(picked.map(brief)).to.deep.equal(['turn.failed: No API key for anthropic', 'turn.failed: the run was lost']);
  });

  it('a question, with what it asks, and its answer', async () => {
    const picked = await moments([asked('ap1', 'npm test'), resolved('ap1')]);
    expect(picked.map(brief)).to.deep.equal(['approval.requested: Run a command: npm test', 'answered ap1']);
  });

  it('an answer counts only for its own turn: the next turn without one says “Completed”', async () => {
    const picked = await moments([answer('done'), turnEnd('completed'), turnEnd('completed')]);
    expect(picked.map(brief)).to.deep.equal(['turn.completed: done', 'turn.completed: Completed']);
  });

  it('a long answer is cut to one line of SUMMARY_MAX_CHARS', async () => {
    const [moment] = await moments([answer('word '.repeat(100)), turnEnd('completed')]);
    const summary = (moment as { summary: string }).summary;
    expect(Array.from(summary)).to.have.length(SUMMARY_MAX_CHARS);
    expect(summary.endsWith('…')).to.equal(true);
  });
});
