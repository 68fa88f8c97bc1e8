import { Subject } from 'rxjs';
import { HostRequestError } from '../protocol/hostErrors';
import { createHostRequester, type HostLink } from './hostLink';
import type { HostHello } from '../protocol/hostContract';
import { JSON_RPC_ERROR, type ServeRequest } from '../protocol/jsonRpc';

/**
 * The embedded daemon's link: the same JSON-RPC messages a WebSocket would carry, serialised through JSON
 * so the embedded path behaves exactly like a remote one (no shared object references across the contract).
 */
export function connectInProcess(daemon: { hello: HostHello; dispatch: ServeRequest }, options: { timeoutMs: number }): HostLink {
  const closed$ = new Subject<void>();
  let open = true;
  const request = createHostRequester(async (message) => {
    if (!open) throw new HostRequestError({ kind: 'offline' }, 'the embedded host link is closed');
    // A value JSON cannot carry (nested thousands deep) is the request's fault, not a sign the host is gone.
    const sent = copyAsJson(message, (reason) => new HostRequestError({ kind: 'refused', rpcCode: JSON_RPC_ERROR.invalidRequest }, `the request cannot be sent as JSON: ${reason}`));
    const response = await daemon.dispatch(sent);
    return copyAsJson(response, (reason) => new HostRequestError({ kind: 'bad_result', issues: [] }, `the answer cannot be sent as JSON: ${reason}`));
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

function copyAsJson<T>(value: T, refusal: (reason: string) => HostRequestError): T {
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw refusal(error instanceof Error ? error.message : String(error));
  }
  return JSON.parse(text) as T;
}
