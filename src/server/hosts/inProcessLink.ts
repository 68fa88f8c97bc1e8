import { Subject } from 'rxjs';
import { HostRequestError } from '../../protocol/hostErrors';
import { createHostRequester, type HostLink } from './hostLink';
import type { HostHello } from '../../protocol/hostContract';
import type { ServeRequest } from '../../protocol/jsonRpc';

/**
 * The embedded daemon's link: the same JSON-RPC messages as a WebSocket, without the serialising (a frame
 * from the intake reaches the pipeline as the object the intake parsed) and with the contract checked once,
 * where it matters: the params by the daemon's dispatcher; results are typed, not parsed again.
 */
export function connectInProcess(daemon: { hello: HostHello; dispatch: ServeRequest }, options: { timeoutMs: number }): HostLink {
  const closed$ = new Subject<void>();
  let open = true;
  const request = createHostRequester(
    async (message, onProgress) => {
      if (!open) throw new HostRequestError({ kind: 'offline' }, 'the embedded host link is closed');
      // Handed over as it is, not copied through JSON: nothing crosses a process, the daemon's dispatcher checks
      // the params (zod builds fresh objects), its handlers are typed against the contract's results, and
      // neither end changes a message it did not build.
      return daemon.dispatch(message, onProgress ? { progress: (_token, value) => onProgress(value) } : {});
    },
    options.timeoutMs,
    { checkParams: false, checkResults: false },
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
