import { expect } from 'chai';
import type { ThreadRecord } from '../../../src/registry/records';
import { forkAgentSession } from '../../../src/server/fork/forkAgentSession';
import { cutAtTurn } from '../../../src/server/fork/forkCut';
import type { HostDirectory } from '../../../src/server/hosts/hostDirectory';
import type { StoredThreadEvent } from '../../../src/store/eventStore';

/** One turn of session `session`, its checkpoint `checkpoint` (the turn id when the agent named none). */
function turn(turnId: string, session: string, checkpoint = turnId): Array<Omit<StoredThreadEvent, 'seq' | 'id'>> {
  const base = { threadId: 'thr_src', turnId, scope: { kind: 'turn', turnId }, createdAt: '2026-12-02T00:00:00.000Z' };
  const text = (type: 'userMessage' | 'agentMessage', words: string) =>
    type === 'userMessage'
      ? { type, id: `u-${turnId}`, content: [{ type: 'text', text: words }] }
      : { type, id: `a-${turnId}`, text: words };
  return [
    { ...base, type: 'turn/started', data: { providerThreadId: session, origin: 'client' } },
    { ...base, type: 'item/completed', data: { providerThreadId: session, item: text('userMessage', `prompt ${turnId}`) } },
    { ...base, type: 'item/completed', data: { providerThreadId: session, item: text('agentMessage', `answer ${turnId}`) } },
    { ...base, type: 'turn/completed', data: { providerThreadId: session, status: 'completed', providerCheckpointId: checkpoint } },
  ] as Array<Omit<StoredThreadEvent, 'seq' | 'id'>>;
}
const numbered = (rows: Array<Omit<StoredThreadEvent, 'seq' | 'id'>>) =>
  rows.map((row, index) => ({ ...row, seq: index + 1, id: `r${index + 1}` }) as StoredThreadEvent);

const SOURCE: ThreadRecord = {
  id: 'thr_src',
  projectId: 'prj_1',
  environmentId: 'env_1',
  hostId: 'host_1',
  provider: 'claude',
  model: 'claude/default',
  title: 'source',
  createdAt: '2026-12-02T00:00:00.000Z',
  providerThreadId: 'S',
};

/**
 * Issue 39: what the server asks of the host's `thread.fork_session` for a fork's agent, by where the cut is and
 * which session the source goes on in (docs/fork.md), and what the fork's record gets back.
 */
describe('fork: how the fork’s agent continues, asked of the host (issue 39)', () => {
  const run = async (rows: StoredThreadEvent[], turnId: string | undefined, source: ThreadRecord, answer: string | null | Error) => {
    const calls: unknown[] = [];
    const hosts = {
      async call(_hostId: string, method: string, params: unknown) {
        calls.push({ method, params });
        if (answer instanceof Error) throw answer;
        return { providerThreadId: answer };
      },
    } as unknown as HostDirectory;
    const forked = await forkAgentSession(hosts, source, cutAtTurn(rows, turnId), '/src');
    return { calls, forked };
  };
  const asked = (checkpointId: string | null, atSessionEnd: boolean) => [
    {
      method: 'thread.fork_session',
      params: { provider: 'claude', providerThreadId: 'S', checkpointId, atSessionEnd, cwd: '/src' },
    },
  ];
  const TWO = numbered([...turn('t1', 'S', 'msg_1'), ...turn('t2', 'S', 'msg_2')]);

  it('the last turn of a thread at rest: the turn’s checkpoint, and the session ends there', async () => {
    const { calls, forked } = await run(TWO, undefined, SOURCE, 'S2');
    expect(calls).to.deep.equal(asked('msg_2', true));
    expect(forked).to.deep.equal({ providerThreadId: 'S2' });
  });

  it('a middle turn: its checkpoint, and the session went on after it', async () => {
    const { calls } = await run(TWO, 't1', SOURCE, 'S2');
    expect(calls).to.deep.equal(asked('msg_1', false));
  });

  it('a checkpoint that is only the turn id is no point of the agent’s: asked at the session’s end, not before', async () => {
    const plain = numbered([...turn('t1', 'S'), ...turn('t2', 'S')]);
    expect((await run(plain, undefined, SOURCE, 'S2')).calls).to.deep.equal(asked(null, true));
    const middle = await run(plain, 't1', SOURCE, 'S2');
    expect(middle.calls).to.deep.equal([]);
    expect(middle.forked.pendingContext).to.include('prompt t1').and.include('answer t1').and.not.include('prompt t2');
  });

  it('a source that goes on in another session (a fork’s copied turns): the session does not end at the cut', async () => {
    const plain = numbered([...turn('t1', 'S'), ...turn('t2', 'S')]);
    expect((await run(plain, undefined, { ...SOURCE, providerThreadId: 'S_fork' }, 'S2')).calls).to.deep.equal([]);
    expect((await run(TWO, undefined, { ...SOURCE, providerThreadId: 'S_fork' }, 'S2')).calls).to.deep.equal(asked('msg_2', false));
  });

  it('a host that cannot fork there or fails: the fork is told the earlier conversation', async () => {
    for (const answer of [null, new Error('agent_failed')]) {
      const { forked } = await run(TWO, undefined, SOURCE, answer);
      expect(forked).to.not.have.property('providerThreadId');
      expect(forked.pendingContext).to.include('prompt t2');
    }
  });
});
