import type { Registry } from '../../registry/registry';
import type { EventStore } from '../../store/eventStore';
import { catchUpIndex } from '../../store/search/catchUpIndex';
import type { SearchIndex } from '../../store/search/searchIndex';

/**
 * A missing or torn index (or rows a crash kept from it) is caught up from the store while the server runs.
 * `caughtUp` resolves with the rows read (0 when the catch-up failed, which is logged); `stop` ends it between
 * pages when the server closes.
 */
export function catchUpSearchInBackground(
  registry: Registry,
  store: EventStore,
  search: SearchIndex,
  log: (message: string) => void,
): { caughtUp: Promise<number>; stop(): void } {
  const stopCatchUp = new AbortController();
  const caughtUp = registry.threads
    .find({})
    .then((threads) =>
      catchUpIndex(
        store,
        threads.map((thread) => thread.id),
        search,
        stopCatchUp.signal,
      ),
    )
    .catch((error: unknown) => {
      log(`search index not caught up: ${String(error)}`);
      return 0;
    });
  return { caughtUp, stop: () => stopCatchUp.abort() };
}
