import { Subject } from 'rxjs';
import { HostRequestError } from '../protocol/hostErrors';
import { createHostRequester, type HostLink } from './hostLink';
import type { HostHello } from '../protocol/hostContract';
import type { ServeRequest } from '../protocol/jsonRpc';

/**
 * The embedded daemon's link: the same JSON-RPC messages a WebSocket would carry, serialised through JSON
 * so the embedded path behaves exactly like a remote one (no shared object references across the contract).
 */
export function connectInProcess(daemon: { hello: HostHello; dispatch: ServeRequest }, options: { timeoutMs: number }): HostLink {
  const closed$ = new Subject<void>();
  let open = true;
  const request = createHostRequester(async (message) => {
    if (!open) throw new HostRequestError({ kind: 'offline' }, 'the embedded host link is closed');
    const response = await daemon.dispatch(JSON.parse(JSON.stringify(message)));
    return JSON.parse(JSON.stringify(response));
  }, options.timeoutMs);
  return {
    hello: JSON.parse(JSON.stringify(daemon.hello)) as HostHello,
    request,
    closed$: closed$.asObservable(),
    async close() {
      if (!open) return;
      open = false;
      closed$.next();
      closed$.complete();
    },
  };
}
