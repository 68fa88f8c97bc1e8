import type { ServeRequest } from '../protocol/jsonRpc';
import { hostCommands, type HostMethod, type HostResult, type ParsedHostParams } from '../protocol/hostContract';
import { serveMethods, type ServedMethod } from '../protocol/serveMethods';

/** One async function per contract command, given already-validated params. */
export type HostHandlers = { [M in HostMethod]: (params: ParsedHostParams<M>) => Promise<HostResult<M>> };

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
    const handle = handlers[method] as (params: unknown) => Promise<unknown>;
    methods[method] = { params: hostCommands[method].params, handle: (params) => handle(params) };
  }
  return serveMethods(methods, { log, what: 'host command' });
}
