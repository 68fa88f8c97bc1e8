import { Subject } from 'rxjs';
import { HostRequestError } from '../../protocol/hostErrors';
import { createHostRequester, type HostLink } from './hostLink';
import type { HostHello } from '../../protocol/hostContract';
import type { ServeRequest } from '../../protocol/jsonRpc';

/**
 * The embedded daemon's link: the same JSON-RPC messages and the same contract checks as a WebSocket (the
 * params once, by the daemon's dispatcher), without the serialising: a frame from the intake reaches the
 * pipeline as the object the intake parsed.
 */
export function connectInProcess(daemon: { hello: HostHello; dispatch: ServeRequest }, options: { timeoutMs: number }): HostLink {
  const closed$ = new Subject<void>();
  let open = true;
  const request = createHostRequester(
    async (message) => {
      if (!open) throw new HostRequestError({ kind: 'offline' }, 'the embedded host link is closed');
      // Handed over as it is, not copied through JSON: nothing crosses a process, the daemon's dispatcher checks
      // the params (zod builds fresh objects), this end checks the result, and neither end changes a message it
      // did not build.
      return daemon.dispatch(message);
    },
    options.timeoutMs,
    { checkParams: false },
  );
  return {
    hello: JSON.parse(JSON.stringify(daemon.hello)) as HostHello,
    embedded: true,
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
