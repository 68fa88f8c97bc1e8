import { expect } from 'chai';
import { durableAck } from '../../src/registry/durableAck';

/** An fsync the test finishes by hand, recording which syncs ran. */
function manualSyncs() {
  const started: Array<{ finish(): void; fail(error: Error): void }> = [];
  const sync = () =>
    new Promise<void>((resolve, reject) => {
      started.push({ finish: resolve, fail: reject });
    });
  return { started, sync };
}

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('durable acks (what an ack waits for under each ATS_FSYNC)', () => {
  it('batch: writes that finish while an fsync runs share the next one, and none is acked by an fsync that began before it', async () => {
    const { started, sync } = manualSyncs();
    const ack = durableAck('file', 'batch', sync);
    const acked: string[] = [];
    ack().then(() => acked.push('w1'));
    await settle();
    expect(started).to.have.length(1);
    ack().then(() => acked.push('w2'));
    ack().then(() => acked.push('w3'));
    await settle();
    expect(started, 'w2 and w3 wait for the running fsync to end').to.have.length(1);
    started[0]!.finish();
    await settle();
    expect(acked).to.deep.equal(['w1']);
    expect(started, 'one fsync for both').to.have.length(2);
    started[1]!.finish();
    await settle();
    expect(acked).to.deep.equal(['w1', 'w2', 'w3']);
  });

  it('batch: a failed fsync rejects the write it covered; writes queued behind it still get an fsync of their own', async () => {
    const { started, sync } = manualSyncs();
    const ack = durableAck('file', 'batch', sync);
    const first = ack();
    const second = ack();
    await settle();
    started[0]!.fail(new Error('EIO'));
    expect(
      await first.then(
        () => 'acked',
        (error: Error) => error.message,
      ),
    ).to.equal('EIO');
    await settle();
    started[1]!.finish();
    expect(await second.then(() => 'acked')).to.equal('acked');
  });

  it('always: an fsync per write; off: acked at once', async () => {
    const { started, sync } = manualSyncs();
    const always = durableAck('file', 'always', sync);
    void always();
    void always();
    await settle();
    expect(started).to.have.length(2);
    let offAcked = false;
    await durableAck('file', 'off', sync)().then(() => (offAcked = true));
    expect(offAcked).to.equal(true);
    expect(started).to.have.length(2);
  });
});
