import { expect } from 'chai';
import { threadUpdatedFrame } from '../../src/protocol/threadUpdateFrame';
import * as a from '../helpers/pipeline/acp';
import { runPipeline, typesOf } from '../helpers/pipeline/run';

const T = 'thr_named';

describe('thread-events pipeline: thread/updated (issue 28)', () => {
  it('stores a change of the thread as a thread-scoped row with only the changed fields, between turns', async () => {
    const { rows } = await runPipeline([
      threadUpdatedFrame({ threadId: T, title: 'Renamed' }),
      threadUpdatedFrame({ threadId: T, archived: true }),
    ]);
    expect(rows.map((row) => [row.type, row.seq, row.turnId, row.scope])).to.deep.equal([
      ['thread/updated', 1, null, { kind: 'thread' }],
      ['thread/updated', 2, null, { kind: 'thread' }],
    ]);
    expect(rows.map((row) => row.data)).to.deep.equal([
      { providerThreadId: T, title: 'Renamed' },
      { providerThreadId: T, archived: true },
    ]);
  });

  it('stores it inside the open turn while one runs (E7), and the turn goes on', async () => {
    const { rows } = await runPipeline([a.started(T), threadUpdatedFrame({ threadId: T, keepAgentRunning: true }), a.ended(T)]);
    expect(typesOf(rows)).to.deep.equal(['turn/started', 'thread/updated', 'turn/completed']);
    expect(rows[1]?.turnId).to.equal(rows[0]?.turnId);
    expect(rows[1]?.scope).to.deep.equal({ kind: 'turn', turnId: rows[0]?.turnId });
  });

  it('refuses a frame whose fields are not the thread’s (invalid params), storing nothing', async () => {
    const { steps, rows } = await runPipeline([{ jsonrpc: '2.0', method: 'thread/updated', params: { threadId: T, title: 42 } }]);
    expect(rows).to.deep.equal([]);
    expect(steps[0]?.ok).to.equal(false);
  });
});
