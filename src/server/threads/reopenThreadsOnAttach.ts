import { errorMessageOf } from '../../protocol/errorMessages';
import { catchError, count, defer, EMPTY, from, lastValueFrom, mergeMap, type Subscription } from 'rxjs';
import type { HostLink } from '../hosts/hostLink';
import type { Registry } from '../../registry/registry';
import type { HostRecord, ThreadRecord } from '../../registry/records';
import type { HostDirectory } from '../hosts/hostDirectory';
import { keepProviderThreadId, openThreadOnHost } from './openThreadOnHost';

/**
 * Threads of one host opened at the same time when it comes online. Opening a pi thread costs a session
 * (and its extensions) on the host: ~4 ms each once the SDK is loaded, ~700 ms for the first (docs/pi.md);
 * a few at once keeps one slow or hanging thread from holding up the rest without flooding the host.
 */
export const REOPEN_CONCURRENCY = 2;

/**
 * Re-opens a host's threads every time its daemon says hello (first start, restart, reconnect), so each agent
 * session resumes and its extensions run again without waiting for a prompt. Only threads whose provider the
 * host runs are opened; intake-only threads have nothing to start. The hello is never held up: the threads
 * open in the background, newest first.
 */
export function reopenThreadsOnAttach(hosts: HostDirectory, deps: { registry: Registry; log(message: string): void }): Subscription {
  return hosts.changes$.subscribe((change) => {
    if (change.kind !== 'attached') return;
    const { host, link } = change;
    void reopenThreads({ hosts, ...deps }, host, link).catch((error: unknown) =>
      deps.log(`re-opening the threads of host ${host.id} failed: ${errorMessageOf(error)}`),
    );
  });
}

async function reopenThreads(
  deps: { hosts: HostDirectory; registry: Registry; log(message: string): void },
  host: HostRecord,
  link: HostLink,
): Promise<void> {
  // A link that was replaced or closed meanwhile is not ours to fill any more (the newer hello reopens).
  const stillLinked = () => deps.hosts.linkOf(host.id) === link;
  const threads = (await deps.registry.threads.find({ hostId: host.id }))
    .filter((thread) => host.providers.includes(thread.provider))
    .reverse();
  const reopen = async (thread: ThreadRecord) => {
    const opened = await openThreadOnHost(deps, thread);
    await keepProviderThreadId(deps.registry, thread, opened.providerThreadId);
  };
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
