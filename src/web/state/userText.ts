/** Codex's `userMessage`: `content` is a list of inputs; text parts are what the person typed. */
export function userTextOf(item: Readonly<Record<string, unknown>>): string {
  if (typeof item.text === 'string') return item.text;
  const content = item.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { type?: string; text?: string; path?: string }) => part.text ?? (part.path ? `@${part.path}` : '')).join('\n');
}
