import { errorMessageOf } from '../../../protocol/errorMessages';
import type { AgentSessionEvent } from '@mariozechner/pi-coding-agent';

/** The frames a pi thread sends into the thread-event pipeline (see docs/pi.md for recorded examples). */
export const PI_PROVIDER_ID = 'pi';

export function sdkMessageFrame(threadId: string, event: AgentSessionEvent) {
  return { jsonrpc: '2.0', method: 'sdk/message', params: { threadId, message: snapshotOf(event) } } as const;
}

export function promptStartedFrame(providerId: string, threadId: string, prompt?: string) {
  const params = prompt === undefined ? { threadId } : { threadId, prompt };
  return { jsonrpc: '2.0', method: `${providerId}/prompt/started`, params } as const;
}

export function promptSettledFrame(providerId: string, threadId: string, error?: unknown) {
  const params = error === undefined ? { threadId } : { threadId, error: { message: errorMessageOf(error) } };
  return { jsonrpc: '2.0', method: `${providerId}/prompt/settled`, params } as const;
}

/**
 * pi keeps mutating the objects it hands to subscribers (a `message_update`'s `partial` grows with every
 * delta), and the pipeline reads frames asynchronously; a JSON copy freezes the event as it was when emitted,
 * exactly as a stdio transport would carry it.
 */
function snapshotOf(event: AgentSessionEvent): unknown {
  try {
    return JSON.parse(JSON.stringify(event)) as unknown;
  } catch {
    return event;
  }
}
