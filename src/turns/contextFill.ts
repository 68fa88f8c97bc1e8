import { AssistantMessageSchema, type AgentMessage } from '../protocol/sdkEvents';

/** What a run tells of the context it leaves: the fill its last model call reported, and what came after it. */
export interface RunContext {
  /**
   * `totalTokens` of the run's last assistant message that reported any; undefined when none did (a stop or
   * an error before the model answered reports zeros, which are no fill).
   */
  reportedTokens: number | undefined;
  /** pi's own estimate (chars / 4, its `estimateTokens`) of the run's messages after that one. */
  trailingTokens: number;
}

/** The context fill a `thread/contextWindowUsage/updated` row reports after a run. */
export interface ContextFill {
  usedTokens: number;
  estimated: boolean;
}

/**
 * pi's `estimateContextTokens`, over one run: the last reported usage, plus an estimate of every message
 * after it. A run that reported none starts from the fill the thread had before it (`lastKnown`), so a stop
 * right after a prompt keeps the meter where it was plus the prompt, instead of dropping it to 0 (issue 29).
 *
 * ```
 * reported 1250, nothing after        → 1250, exact
 * nothing reported, 400 chars of text → lastKnown + 100, estimated
 * ```
 */
export function contextFillOf(context: RunContext, lastKnown: number): ContextFill {
  const { reportedTokens, trailingTokens } = context;
  return {
    usedTokens: (reportedTokens ?? lastKnown) + trailingTokens,
    estimated: reportedTokens === undefined || trailingTokens > 0,
  };
}

export function runContextOf(messages: readonly AgentMessage[]): RunContext {
  let trailingTokens = 0;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const reported = reportedTokensOf(messages[i]!);
    if (reported !== undefined) return { reportedTokens: reported, trailingTokens };
    trailingTokens += estimatedTokensOf(messages[i]!);
  }
  return { reportedTokens: undefined, trailingTokens };
}

/** As pi: an aborted or failed call's usage is not the context's (it may be partial or zero). */
function reportedTokensOf(message: AgentMessage): number | undefined {
  const assistant = AssistantMessageSchema.safeParse(message);
  if (!assistant.success || !assistant.data.usage) return undefined;
  if (assistant.data.stopReason === 'aborted' || assistant.data.stopReason === 'error') return undefined;
  const { input, output, cacheRead, cacheWrite, totalTokens } = assistant.data.usage;
  const total = totalTokens > 0 ? totalTokens : input + output + cacheRead + cacheWrite;
  return Number.isFinite(total) && total > 0 ? Math.round(total) : undefined;
}

/** Text, thinking and tool-call arguments count by length; an image as 1,200 tokens (pi's 4,800 chars). */
const IMAGE_CHARS = 4_800;

function estimatedTokensOf(message: AgentMessage): number {
  const { content } = message;
  if (typeof content === 'string') return Math.ceil(content.length / 4);
  let chars = 0;
  for (const block of content ?? []) {
    const part = (block ?? {}) as Record<string, unknown>;
    if (typeof part['text'] === 'string') chars += part['text'].length;
    else if (typeof part['thinking'] === 'string') chars += part['thinking'].length;
    else if (part['type'] === 'toolCall') chars += String(part['name'] ?? '').length + JSON.stringify(part['arguments'] ?? {}).length;
    else if (part['type'] === 'image') chars += IMAGE_CHARS;
  }
  return Math.ceil(chars / 4);
}
