import { expect } from 'chai';
import { createHostPresence } from '../../../src/server/hosts/hostPresence';

describe('hosts: presence and reconnect grace (runtime.displayStatus, spec 2.4)', () => {
  let clock: number;
  const presence = () => createHostPresence({ graceMs: 60_000, now: () => clock });
  beforeEach(() => (clock = 1_000_000));

  it('shows the status the host reported while it is connected, with no grace deadline', () => {
    const p = presence();
    p.connected('host_a');
    expect(p.runtimeOf('host_a', true, 'active')).to.deep.equal({ displayStatus: 'active', hostReconnectGraceExpiresAt: null });
    expect(p.runtimeOf('host_a', true, 'idle')).to.deep.equal({ displayStatus: 'idle', hostReconnectGraceExpiresAt: null });
  });

  it('is host-reconnecting with the deadline (epoch ms) during the grace after a drop, then waiting-for-host', () => {
    const p = presence();
    p.connected('host_a');
    clock += 5_000;
    p.disconnected('host_a');
    clock += 59_999;
    expect(p.runtimeOf('host_a', false, 'active')).to.deep.equal({
      displayStatus: 'host-reconnecting',
      hostReconnectGraceExpiresAt: 1_065_000,
    });
    clock += 1;
    expect(p.runtimeOf('host_a', false, 'active')).to.deep.equal({ displayStatus: 'waiting-for-host', hostReconnectGraceExpiresAt: null });
  });

  it('goes back to the reported status when the host returns, and a later drop starts a fresh grace', () => {
    const p = presence();
    p.disconnected('host_a');
    clock += 120_000;
    p.connected('host_a');
    expect(p.runtimeOf('host_a', true, 'idle').displayStatus).to.equal('idle');
    p.disconnected('host_a');
    expect(p.runtimeOf('host_a', false, 'idle')).to.deep.equal({
      displayStatus: 'host-reconnecting',
      hostReconnectGraceExpiresAt: clock + 60_000,
    });
  });

  it('gives a host not seen since the server started its grace from the start (daemons redial after a server restart)', () => {
    const p = presence();
    clock += 10_000;
    expect(p.runtimeOf('host_b', false, 'idle')).to.deep.equal({
      displayStatus: 'host-reconnecting',
      hostReconnectGraceExpiresAt: 1_060_000,
    });
  });
});
