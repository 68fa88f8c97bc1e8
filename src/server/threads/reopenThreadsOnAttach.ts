import { errorMessageOf } from '../../protocol/errorMessages';
import { catchError, count, defer, EMPTY, from, lastValueFrom, mergeMap, toArray, type Subscription } from 'rxjs';
import type { HostLink } from '../hosts/hostLink';
import type { Registry } from '../../registry/registry';
import type { HostRecord, ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import type { EventStore } from '../../store/eventStore';
import { keepProviderThreadId, openThreadOnHost } from './openThreadOnHost';
import { storedThreadStatus } from './storedThreadStatus';
import { changeThreadIfLive } from './threadChanges';

/**
 * Threads of one host opened at the same time when it comes online. Opening a kept-running pi thread costs a
 * session (and its extensions) on the host: ~4 ms each once the SDK is loaded, ~700 ms for the first
 * (docs/pi.md); a few at once keeps one slow or hanging thread from holding up the rest without flooding it.
 */
export const REOPEN_CONCURRENCY = 2;

/** Threads whose stored rows are read at once to find a turn to restore (one short read from the end each). */
export const STATUS_READ_CONCURRENCY = 8;

export interface ReopenDeps {
  registry: Registry;
  /** The rows tell which threads have a turn open (an agent must be there to finish it). */
  store: EventStore;
  log(message: string): void;
}

/**
 * Re-opens, every time a host's daemon says hello (first start, restart, reconnect), the threads that need
 * an agent now (issue 28): those that keep their agent running (their extensions run without a prompt) and
 * those whose stored rows show an open turn to restore. Every other thread is opened by its first command
 * (`promptThread`), so a host with a thousand threads starts no agent at its hello. Only threads whose
 * provider the host runs, and that are not archived, qualify. The hello is never held up: the threads open in
 * the background, newest first.
 */
export function reopenThreadsOnAttach(hosts: HostDirectory, deps: ReopenDeps): Subscription {
  return hosts.changes$.subscribe((change) => {
    if (change.kind !== 'attached') return;
    const { host, link } = change;
    void reopenThreads({ hosts, ...deps }, host, link).catch((error: unknown) =>
      deps.log(`re-opening the threads of host ${host.id} failed: ${errorMessageOf(error)}`),
    );
  });
}

async function reopenThreads(deps: ReopenDeps & { hosts: HostDirectory }, host: HostRecord, link: HostLink): Promise<void> {
  // A link that was replaced or closed meanwhile is not ours to fill any more (the newer hello reopens).
  const stillLinked = () => deps.hosts.linkOf(host.id) === link;
  const candidates = (await deps.registry.threads.find({ hostId: host.id }))
    .filter((thread) => host.providers.includes(thread.provider) && !thread.archived)
    .reverse();
  const threads = await needingAgent(deps.store, candidates);
  // As the thread's owner (threadChanges.ts), on the record as it is then: one archived meanwhile stays closed.
  const reopen = (thread: ThreadRecord) =>
    changeThreadIfLive(deps.registry, thread.id, async (current) => {
      if (current.archived) return;
      const opened = await openThreadOnHost(deps, current);
      await keepProviderThreadId(deps.registry, current, opened.providerThreadId);
    });
  const reopened = await lastValueFrom(
    from(threads).pipe(
      mergeMap(
        (thread) =>
          stillLinked()
            ? defer(() => reopen(thread)).pipe(
                catchError((error: unknown) => {
                  // One thread that cannot start (model gone from models.json, …) never stops the others.
                  if (stillLinked()) deps.log(`could not re-open thread ${thread.id} on host ${host.id}: ${errorMessageOf(error)}`);
                  return EMPTY;
                }),
              )
            : EMPTY,
        REOPEN_CONCURRENCY,
      ),
      count(),
    ),
  );
  if (threads.length > 0) deps.log(`re-opened ${reopened} of ${threads.length} threads on host ${host.id}`);
}

/** The threads that need their agent at the hello, in the order given. */
async function needingAgent(store: EventStore, threads: readonly ThreadRecord[]): Promise<ThreadRecord[]> {
  const needed = await lastValueFrom(
    from(threads).pipe(
      mergeMap(async (thread) => {
        if (thread.keepAgentRunning) return thread;
        // A thread whose rows cannot be read is left to its first command, like any other.
        return (await storedThreadStatus(store, thread.id).catch(() => 'idle')) === 'active' ? thread : undefined;
      }, STATUS_READ_CONCURRENCY),
      toArray(),
    ),
  );
  const kept = new Set(needed);
  return threads.filter((thread) => kept.has(thread));
}
