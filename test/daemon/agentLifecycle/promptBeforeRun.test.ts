import { expect } from 'chai';
import { createThreadIngest, type ThreadIngest } from '../../../src/ingest/threadIngest';
import type { HostDaemonDeps } from '../../../src/daemon/hostDaemon';
import type { EventStore } from '../../../src/store/eventStore';
import { createMemoryEventStore } from '../../../src/store/memoryEventStore';
import { fakeProvider } from '../../helpers/fakes/provider';
import { eventually } from '../../helpers/server/eventually';
import { daemonWith, type TestDaemon } from './daemonWith';

const completedTurns = async (store: EventStore, threadId: string) =>
  (await store.list(threadId)).filter((row) => row.type === 'turn/completed').map((row) => row.data.status);

/** A gate a test opens: `wait` resolves once `open` was called. */
function gate(): { wait: Promise<void>; open(): void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/**
 * The real ingest, counting every look at a thread's status (the idle close looks once per idle period) and,
 * with `holdStarted`, holding that thread's `prompt/started` frame on its way in until the gate opens (a
 * pipeline busy storing other threads' rows on a loaded machine).
 */
function watchedIngest(
  counter: { looks: number },
  holdStarted?: { threadId: string; until: Promise<void> },
): HostDaemonDeps['createIngest'] {
  return (deps) => {
    const ingest = createThreadIngest(deps);
    const watched: ThreadIngest = {
      ...ingest,
      threadStatus(threadId) {
        counter.looks += 1;
        return ingest.threadStatus(threadId);
      },
      async ingest(frame, threadId) {
        const { method, params } = frame as { method?: string; params?: { threadId?: string } };
        if (holdStarted && params?.threadId === holdStarted.threadId && method?.endsWith('/prompt/started')) await holdStarted.until;
        return ingest.ingest(frame, threadId);
      },
    };
    return watched;
  };
}

/**
 * Issue 28 (docs/limits.md, before this fix): with a tiny `ATS_AGENT_IDLE_MS`, the idle close could take pi's agent
 * between a prompt being taken and its run's first event, and the first turn ended `interrupted`. Here the gaps
 * are made as long as the test wants, so without the fix the close happens every time: a taken prompt keeps the
 * agent from its acceptance until its turn ends, whatever the idle time.
 */
describe('host daemon: a prompt the agent took keeps its agent until its turn ends (issue 28, idle close race)', () => {
  const IDLE_MS = 20;
  let t: TestDaemon | undefined;
  afterEach(() => t?.daemon.close());

  /** Waits until the idle close has looked `n` more times, or has closed the agent (then it looks no more). */
  const idleLooksOrClose = (counter: { looks: number }, disposed: string[], n: number) => {
    const from = counter.looks;
    return eventually(() => (disposed.length > 0 || counter.looks >= from + n ? true : undefined), `${n} idle looks or the idle close`);
  };

  it('a prompt taken whose run has not begun yet: the agent stays through idle periods and the turn completes', async () => {
    const store = createMemoryEventStore();
    const run = gate();
    const provider = fakeProvider('fake', { runGate: run.wait });
    const counter = { looks: 0 };
    t = daemonWith(store, [provider], IDLE_MS, watchedIngest(counter));
    await t.call('thread.open', { threadId: 'thr_p', cwd: '/tmp', provider: 'fake', model: 'm' });

    await t.call('thread.prompt', { threadId: 'thr_p', prompt: 'hi' });
    await idleLooksOrClose(counter, provider.disposed, 3);
    expect(provider.disposed, 'the agent was closed under the prompt it had taken').to.deep.equal([]);

    run.open();
    await eventually(async () => ((await completedTurns(store, 'thr_p')).length ? true : undefined), 'the turn');
    expect(await completedTurns(store, 'thr_p')).to.deep.equal(['completed']);
  });

  it('a prompt taken whose prompt/started frame is still on its way into the pipeline: the agent stays', async () => {
    const store = createMemoryEventStore();
    const run = gate();
    const started = gate();
    const provider = fakeProvider('fake', { runGate: run.wait });
    t = daemonWith(store, [provider], IDLE_MS, watchedIngest({ looks: 0 }, { threadId: 'thr_f', until: started.wait }));
    await t.call('thread.open', { threadId: 'thr_f', cwd: '/tmp', provider: 'fake', model: 'm' });
    await t.call('thread.open', { threadId: 'thr_clock', cwd: '/tmp', provider: 'fake', model: 'm' });

    await t.call('thread.prompt', { threadId: 'thr_f', prompt: 'hi' });
    // The clock: a thread whose idle count starts after thr_f's, on the same idle time. Once its agent is
    // closed, an idle close of thr_f's agent would have come first (timers of one duration fire in order).
    const clock = t.call('thread.prompt', { threadId: 'thr_clock', prompt: 'tick' });
    await eventually(
      () => (provider.disposed.includes('thr_clock') || provider.disposed.includes('thr_f') ? true : undefined),
      'an idle close',
    );
    expect(provider.disposed, 'the agent was closed while its prompt/started frame was on its way').to.not.include('thr_f');

    started.open();
    run.open();
    await clock;
    await eventually(async () => ((await completedTurns(store, 'thr_f')).length ? true : undefined), 'the turn');
    expect(await completedTurns(store, 'thr_f')).to.deep.equal(['completed']);
    // Once the turn has ended the agent closes as before.
    await eventually(() => (provider.disposed.includes('thr_f') ? true : undefined), 'the idle close after the turn');
  });
});
