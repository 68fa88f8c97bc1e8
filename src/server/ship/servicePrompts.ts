/**
 * The questions the service asks a thread's agent (issue 39's `generate`). Every one starts with
 * `SERVICE_PROMPT_PREFIX`, so a reader of the thread (the page) tells them from the user's own prompts.
 */
export const SERVICE_PROMPT_PREFIX = '[agent-thread-service] ';
export type GenerateKind = 'commit' | 'pull-request';

export function servicePrompt(kind: GenerateKind, base?: string): string {
  if (kind === 'commit') {
    return `${SERVICE_PROMPT_PREFIX}Write a git commit message for the uncommitted changes in this folder (look at \`git status\` and \`git diff HEAD\` if you need to). Do not change, stage or commit anything. Answer with the message only, no quotes or code fence: a subject line of at most 72 characters in the imperative mood, then, if the change needs it, a blank line and a short body.`;
  }
  const range = base ? `${base}..HEAD` : 'the branch (against its base)';
  return `${SERVICE_PROMPT_PREFIX}Write the title and description of a pull request for the commits of ${range} (look at \`git log\` and \`git diff\` if you need to). Do not change, stage, commit or push anything. Answer in exactly this form, no code fence: the title on the first line, then a blank line, then the description in Markdown.`;
}

/** The agent's answer to the pull request question → title (first line) and body (the rest). */
export function titleAndBody(text: string): { title: string; body: string } {
  const [first = '', ...rest] = text.trim().split('\n');
  return {
    title: first
      .replace(/^#+\s*/, '')
      .replace(/^title:\s*/i, '')
      .trim(),
    body: rest.join('\n').trim(),
  };
}
