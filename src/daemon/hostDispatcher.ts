import type { ServeRequest } from '../protocol/jsonRpc';
import { hostCommands, type HostMethod, type HostPart, type HostResult, type ParsedHostParams } from '../protocol/hostContract';
import type { ServeContext } from '../protocol/partialResults';
import { serveMethods, type ServedMethod } from '../protocol/serveMethods';

/**
 * One async function per contract command, given already-validated params. A command that answers in parts
 * gets `sendPart` when the caller asked for parts and the link carries them; without it, it answers whole.
 */
export type HostHandlers = {
  [M in HostMethod]: (params: ParsedHostParams<M>, sendPart?: (part: HostPart<M>) => void) => Promise<HostResult<M>>;
};

/** Thrown-by-handler errors that are not HostCommandError are bugs; the peer learns only that it failed. */
export type HostDispatcher = ServeRequest;

/**
 * The daemon side of the contract, and the daemon's one gate: every request, from a remote server or the
 * embedded one, is checked here against the contract (serveMethods), so handlers trust their params. Never
 * throws: every failure is an error response, so one bad request cannot take a link down.
 */
export function createHostDispatcher(handlers: HostHandlers, log: (message: string) => void = () => {}): HostDispatcher {
  const methods: Record<string, ServedMethod> = {};
  for (const method of Object.keys(hostCommands) as HostMethod[]) {
    const handle = handlers[method] as (params: unknown, sendPart?: (part: unknown) => void) => Promise<unknown>;
    methods[method] = {
      params: hostCommands[method].params,
      handle: (params, _request, context) => handle(params, partSender(params, context)),
    };
  }
  return serveMethods(methods, { log, what: 'host command' });
}

/** Parts go to the caller's token; none when the caller named none or the transport has nowhere to send them. */
function partSender(params: unknown, context: ServeContext): ((part: unknown) => void) | undefined {
  const token = (params as { partialResultToken?: string | number }).partialResultToken;
  const { progress } = context;
  return token === undefined || !progress ? undefined : (part) => progress(token, part);
}
