/**
 * The frames that put an agent's failure into its thread's log, as the turn rules read them (promptRules.ts):
 * a prompt that settles with an error before any run took it.
 *
 * - With the prompt's text (issue 29): the prompt becomes a failed turn of its own, its `userMessage` and then
 *   `turn/completed {status: "failed", error}`: every prompt is in the log, and its failure right after it.
 * - Without one (an agent that failed to start when no prompt asked for it: keep-running, a restored turn):
 *   one thread-scoped `provider/error` says why nothing runs (issue 12).
 */
export function agentFailureFrames(providerId: string, threadId: string, reason: string, prompt?: string): unknown[] {
  return [
    { jsonrpc: '2.0', method: `${providerId}/prompt/started`, params: prompt === undefined ? { threadId } : { threadId, prompt } },
    { jsonrpc: '2.0', method: `${providerId}/prompt/settled`, params: { threadId, error: { message: reason } } },
  ];
}
