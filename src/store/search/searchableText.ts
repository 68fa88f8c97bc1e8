import type { StoredThreadEvent } from '../eventStore';

/** What a searchable row holds: what the user sent, the agent's answer, or a command line. */
export type SearchableKind = 'user' | 'agent' | 'command';

export interface SearchDoc {
  threadId: string;
  seq: number;
  kind: SearchableKind;
  text: string;
}

/**
 * The text search finds a row by, or undefined for the rows it skips. Only `item/completed` rows count: an
 * agent message is whole there (its deltas would index each fragment again), a user message and a command
 * line are the same at start and end, so the completed row alone stands for the item. Command output is
 * not indexed (it dwarfs the rest and is rarely what a user looks for).
 */
export function searchDocOf(row: StoredThreadEvent): SearchDoc | undefined {
  if (row.type !== 'item/completed') return undefined;
  const { item } = row.data;
  const doc = (kind: SearchableKind, text: string) =>
    text.trim() === '' ? undefined : { threadId: row.threadId, seq: row.seq, kind, text };
  switch (item.type) {
    case 'userMessage':
      return doc('user', item.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n'));
    case 'agentMessage':
      return doc('agent', item.text);
    case 'commandExecution':
      return doc('command', item.command);
    default:
      return undefined;
  }
}

/**
 * Words as both engines cut them: runs of letters and digits, lowercased. PostgreSQL is given the same cut
 * (migration 005 turns every other character into a space before `to_tsvector('simple', …)`), so a query
 * finds the same rows on either engine.
 */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** The distinct words of a query, at most `MAX_QUERY_WORDS` (a pasted paragraph is not a query). */
export function queryWordsOf(query: string): string[] {
  return [...new Set(wordsOf(query))].slice(0, MAX_QUERY_WORDS);
}

export const MAX_QUERY_WORDS = 16;
export const WORD = /[\p{L}\p{N}]+/gu;
