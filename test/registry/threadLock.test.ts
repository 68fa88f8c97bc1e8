import { expect } from 'chai';
import { inProcessThreadLock, type ThreadLock } from '../../src/registry/threadLock';

/** A change that records when it starts and ends, and ends when told. */
function gatedChange(log: string[], name: string) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return {
    open,
    run: async () => {
      log.push(`${name} starts`);
      await gate;
      log.push(`${name} ends`);
      return name;
    },
  };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('thread lock, in process (issue 37)', () => {
  it('runs the changes of one thread one at a time, in the order they asked', async () => {
    const lock = inProcessThreadLock();
    const log: string[] = [];
    const [first, second, third] = ['first', 'second', 'third'].map((name) => gatedChange(log, name));
    const results = [first!, second!, third!].map((change) => lock.run('thr_a', change.run));
    await settle();
    expect(log).to.deep.equal(['first starts']);
    third!.open();
    second!.open();
    await settle();
    expect(log).to.deep.equal(['first starts']);
    first!.open();
    expect(await Promise.all(results)).to.deep.equal(['first', 'second', 'third']);
    expect(log).to.deep.equal(['first starts', 'first ends', 'second starts', 'second ends', 'third starts', 'third ends']);
  });

  it('runs changes of different threads side by side', async () => {
    const lock = inProcessThreadLock();
    const log: string[] = [];
    const [a, b] = ['a', 'b'].map((name) => gatedChange(log, name));
    const results = [lock.run('thr_a', a!.run), lock.run('thr_b', b!.run)];
    await settle();
    expect(log).to.deep.equal(['a starts', 'b starts']);
    b!.open();
    expect(await results[1]).to.equal('b');
    a!.open();
    expect(await results[0]).to.equal('a');
  });

  it('answers a failed change with its failure, and the next change of the thread still runs', async () => {
    const lock = inProcessThreadLock();
    const failed = lock.run('thr_a', async () => {
      throw new Error('refused');
    });
    const next = lock.run('thr_a', async () => 'ran');
    expect(await failed.catch((error: Error) => error.message)).to.equal('refused');
    expect(await next).to.equal('ran');
  });

  it('holds the lock of the next stage (other replicas) for one change of a thread at a time', async () => {
    let held = 0;
    let most = 0;
    const across: ThreadLock = {
      async run(_threadId, change) {
        held++;
        most = Math.max(most, held);
        try {
          return await change();
        } finally {
          held--;
        }
      },
    };
    const lock = inProcessThreadLock(across);
    await Promise.all(Array.from({ length: 20 }, (_, i) => lock.run('thr_a', async () => i)));
    expect(most).to.equal(1);
  });
});
