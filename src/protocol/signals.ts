import { z } from 'zod';
import { SdkEventSchema } from './sdkEvents';

/** Method of the envelope that carries one SDK event unchanged. */
export const SDK_MESSAGE_METHOD = 'sdk/message';
/** Method of the user stop signal. */
export const THREAD_STOP_METHOD = 'thread/stop';

const ThreadIdSchema = z.string().min(1);

/** Params are checked strictly on what we read and strip what we do not, so a daemon may add fields later. */
export const SdkMessageParamsSchema = z.object({ threadId: ThreadIdSchema, message: SdkEventSchema });
export type SdkMessageParams = z.infer<typeof SdkMessageParamsSchema>;

/** `<providerId>/prompt/settled`: the SDK prompt call of a client-started turn resolved (or rejected). */
export const PromptSettledParamsSchema = z.object({ threadId: ThreadIdSchema, error: z.unknown().optional() });
export type PromptSettledParams = z.infer<typeof PromptSettledParamsSchema>;

/**
 * `<providerId>/prompt/started`: sent right before the SDK prompt call, so the next turn is client-started.
 * `prompt`: the text sent, so a prompt the agent never takes (no key, no agent) is still in the log (issue 29);
 * older senders leave it out.
 */
export const PromptStartedParamsSchema = z.object({ threadId: ThreadIdSchema, prompt: z.string().optional() });
export type PromptStartedParams = z.infer<typeof PromptStartedParamsSchema>;

/**
 * `thread/stop`: the user's stop signal as a frame of the thread's stream (read like the other signals: any
 * non-empty id, unknown fields stripped). Not the host command `thread.stop` (threadCommands.ts), which the
 * server sends and the daemon's dispatcher checks strictly.
 */
export const ThreadStopSignalParamsSchema = z.object({ threadId: ThreadIdSchema });
export type ThreadStopSignalParams = z.infer<typeof ThreadStopSignalParamsSchema>;

/** `pi/prompt/settled` → `{ providerId: 'pi', signal: 'settled' }`. */
export function parsePromptSignalMethod(method: string): { providerId: string; signal: 'started' | 'settled' } | undefined {
  const match = /^([A-Za-z0-9_.-]+)\/prompt\/(started|settled)$/.exec(method);
  return match ? { providerId: match[1]!, signal: match[2] as 'started' | 'settled' } : undefined;
}

/** A settle error may be an Error-like object, a string, or anything; the turn only needs a message. */
/** The thread a frame names in `params.threadId`, read without validating the rest (routing, parking). */
export function threadIdOf(frame: unknown): string | undefined {
  const params = typeof frame === 'object' && frame !== null ? (frame as { params?: { threadId?: unknown } }).params : undefined;
  return typeof params?.threadId === 'string' && params.threadId !== '' ? params.threadId : undefined;
}
