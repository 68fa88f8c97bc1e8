import { AssistantMessageSchema, messageTextOf, type AgentEnd, type SdkUsage } from '../protocol/sdkEvents';
import { ZERO_TOKENS, type TokenCounts } from '../protocol/threadEvents';
import { runContextOf, type RunContext } from './contextFill';

/** What a valid `agent_end` says about its run (E3: result fields come from the last assistant message). */
export interface RunOutcome {
  finalText: string;
  stopReason: string | undefined;
  errorMessage: string | undefined;
  /** Usage of the last assistant message, undefined when it reported none. */
  lastUsage: TokenCounts | undefined;
  /** Sum over every assistant message of the run: each one is a model call that was billed. */
  runUsage: TokenCounts;
  /** The context the run leaves, for `thread/contextWindowUsage/updated` (contextFill.ts). */
  context: RunContext;
}

export function runOutcomeOf(agentEnd: AgentEnd): RunOutcome {
  const assistants = agentEnd.messages.flatMap((message) => {
    const parsed = AssistantMessageSchema.safeParse(message);
    return parsed.success ? [parsed.data] : [];
  });
  const last = assistants.at(-1);
  return {
    finalText: last ? messageTextOf(last.content) : '',
    stopReason: last?.stopReason,
    errorMessage: last?.errorMessage,
    lastUsage: last?.usage ? tokenCountsOf(last.usage) : undefined,
    runUsage: assistants.reduce((sum, message) => (message.usage ? addTokens(sum, tokenCountsOf(message.usage)) : sum), ZERO_TOKENS),
    context: runContextOf(agentEnd.messages),
  };
}

/**
 * pi counts `input` without cache hits (Anthropic style); thread events count cached tokens inside
 * `inputTokens` and report them again as `cachedInputTokens` (OpenAI style).
 */
export function tokenCountsOf(usage: SdkUsage): TokenCounts {
  const inputTokens = int(usage.input) + int(usage.cacheRead) + int(usage.cacheWrite);
  const outputTokens = int(usage.output);
  const reportedTotal = int(usage.totalTokens);
  return {
    totalTokens: reportedTotal > 0 ? reportedTotal : inputTokens + outputTokens,
    inputTokens,
    cachedInputTokens: int(usage.cacheRead),
    outputTokens,
  };
}

export function addTokens(a: TokenCounts, b: TokenCounts): TokenCounts {
  return {
    totalTokens: a.totalTokens + b.totalTokens,
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
  };
}

function int(value: number): number {
  return Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}
