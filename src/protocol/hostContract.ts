import { z } from 'zod';
import { hostFileCommands } from './hostFileCommands';
import { hostModelCommands } from './hostModelCommands';
import { hostGitCommands } from './hostGitCommands';
import { hostRewindCommands } from './hostRewindCommands';
import { hostForkCommands } from './hostForkCommands';
import { hostShipCommands } from './hostShipCommands';
import { threadCommands } from './threadCommands';

/**
 * The host-daemon contract: every JSON-RPC 2.0 command the server may send to a host, with zod schemas for
 * params and result, checked on both sides of the link. Nothing here knows how bytes travel: the embedded
 * daemon uses an in-process link, a remote one a WebSocket, and both speak exactly these messages.
 */
export const hostCommands = {
  ...hostFileCommands,
  ...threadCommands,
  ...hostModelCommands,
  ...hostGitCommands,
  ...hostRewindCommands,
  ...hostForkCommands,
  ...hostShipCommands,
} as const;

export type HostMethod = keyof typeof hostCommands;
export type HostParams<M extends HostMethod> = z.input<(typeof hostCommands)[M]['params']>;
export type ParsedHostParams<M extends HostMethod> = z.output<(typeof hostCommands)[M]['params']>;
export type HostResult<M extends HostMethod> = z.output<(typeof hostCommands)[M]['result']>;
/** One part of a command that may answer in parts (partialResults.ts); `never` for the others. */
export type HostPart<M extends HostMethod> = (typeof hostCommands)[M] extends { partial: infer S extends z.ZodType } ? z.output<S> : never;

export function isHostMethod(method: string): method is HostMethod {
  return Object.prototype.hasOwnProperty.call(hostCommands, method);
}

/** What a daemon says first on every link; the server refuses a different protocol version. */
export const HostHelloSchema = z.strictObject({
  protocolVersion: z.number().int(),
  hostId: z.string().regex(/^host_/),
  name: z.string().min(1),
  platform: z.string(),
  /** Ids of the AgentProviders this daemon can run, e.g. `["pi"]`. */
  providers: z.array(z.string()),
});
export type HostHello = z.infer<typeof HostHelloSchema>;

export * from './threadCommands';
export * from './hostFileCommands';
export * from './hostModelCommands';
export * from './hostGitCommands';
export * from './hostRewindCommands';
export * from './hostForkCommands';
export * from './hostShipCommands';
export * from './hostErrors';
