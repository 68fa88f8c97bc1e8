/**
 * The prefix of the questions the service asks a thread's agent (`generate` of a commit or pull request,
 * src/server/ship/servicePrompts.ts; test/web/servicePrompt.test.ts holds the two equal). Such a prompt is
 * shown as the service's, not the user's.
 */
export const SERVICE_PROMPT_PREFIX = '[agent-thread-service] ';

/** The question without its prefix when the service asked it, else null. */
export function serviceQuestionOf(text: string): string | null {
  return text.startsWith(SERVICE_PROMPT_PREFIX) ? text.slice(SERVICE_PROMPT_PREFIX.length) : null;
}
