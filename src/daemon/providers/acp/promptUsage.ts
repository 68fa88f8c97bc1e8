/**
 * The token usage of a `session/prompt` answer: ACP's `usage` where the agent sends it (Claude, Codex), else
 * Gemini CLI's own `_meta.quota.token_count` (0.61 sends no `usage` and no `usage_update`), read as ACP usage
 * with no cache counts. Undefined when the answer carries neither.
 */
export function promptUsageOf(answer: unknown): unknown {
  const fields = recordOf(answer);
  if (fields?.['usage'] !== undefined && fields['usage'] !== null) return fields['usage'];
  const count = recordOf(recordOf(recordOf(fields?.['_meta'])?.['quota'])?.['token_count']);
  const input = count?.['input_tokens'];
  const output = count?.['output_tokens'];
  if (typeof input !== 'number' || typeof output !== 'number') return undefined;
  return { inputTokens: input, outputTokens: output, totalTokens: input + output };
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
