import { expect } from 'chai';
import type { Thread } from '../../src/web/api/types';
import { statusText } from '../../src/web/state/directory';

type Presence = Pick<Thread['runtime'], 'displayStatus' | 'hostReconnectGraceExpiresAt'>;

const thread = (presence: Presence, status: Thread['status'] = 'active'): Thread => ({
  id: 'thr_1',
  projectId: 'proj_1',
  environmentId: 'env_1',
  hostId: 'host_1',
  provider: 'pi',
  model: 'fake/fake-model',
  title: 'A thread',
  createdAt: '2026-11-24T00:00:00.000Z',
  workspace: { kind: 'checkout', path: '/p', branch: null, baseRef: null, baseCommit: null, state: 'ready' },
  archived: false,
  keepAgentRunning: false,
  agent: 'stopped',
  status,
  lastTurnStatus: null,
  runtime: { activity: status === 'active' ? 'working' : 'idle', pendingApprovalIds: [], ...presence },
});

/** The status a thread's link shows, as text (issue 15): the reconnect grace counts down in seconds. */
describe('the page shows a thread status as text', () => {
  it('active, idle and waiting-for-host as the server says them', () => {
    expect(statusText(thread({ displayStatus: 'active', hostReconnectGraceExpiresAt: null }), 0)).to.equal('active');
    expect(statusText(thread({ displayStatus: 'idle', hostReconnectGraceExpiresAt: null }, 'idle'), 0)).to.equal('idle');
    expect(statusText(thread({ displayStatus: 'waiting-for-host', hostReconnectGraceExpiresAt: null }), 0)).to.equal('waiting-for-host');
  });

  it('an idle thread whose last turn failed (a prompt the agent could not take) is marked until its next turn (issue 29)', () => {
    const failed = { ...thread({ displayStatus: 'idle', hostReconnectGraceExpiresAt: null }, 'idle'), lastTurnStatus: 'failed' as const };
    expect(statusText(failed, 0)).to.equal('idle, last turn failed');
    expect(statusText({ ...failed, lastTurnStatus: 'interrupted' }, 0)).to.equal('idle');
  });

  it('host-reconnecting with the seconds left in the grace, never below zero', () => {
    const reconnecting = thread({ displayStatus: 'host-reconnecting', hostReconnectGraceExpiresAt: 100_000 });
    expect(statusText(reconnecting, 88_500)).to.equal('host-reconnecting (12 s left)');
    expect(statusText(reconnecting, 101_000)).to.equal('host-reconnecting (0 s left)');
  });
});
