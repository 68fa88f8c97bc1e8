import { WORD } from './searchableText';

/** `[start, end)` offsets into the excerpt of a matched word. */
export type Mark = [number, number];

export interface Excerpt {
  excerpt: string;
  marks: Mark[];
}

/** Characters of context shown around the first matched word; a hit's excerpt is at most twice this long plus the word. */
export const EXCERPT_CONTEXT_CHARS = 80;

/**
 * A short excerpt of `text` around its first matched word, with every matched word in it marked. Computed
 * the same way for both engines (not by `ts_headline`), so a hit reads the same on either; `…` says where
 * the text was cut.
 */
export function excerptOf(text: string, words: readonly string[]): Excerpt {
  const wanted = new Set(words);
  const matches: Mark[] = [];
  for (const match of text.matchAll(WORD)) {
    if (wanted.has(match[0].toLowerCase())) matches.push([match.index, match.index + match[0].length]);
  }
  const first = matches[0]?.[0] ?? 0;
  let start = Math.max(0, first - EXCERPT_CONTEXT_CHARS);
  let end = Math.min(text.length, (matches[0]?.[1] ?? 0) + EXCERPT_CONTEXT_CHARS);
  // Cut at spaces where there is one near, so the excerpt starts and ends on whole words.
  if (start > 0) start = nextSpace(text, start, first) ?? start;
  if (end < text.length) end = previousSpace(text, end, matches[0]?.[1] ?? 0) ?? end;
  const head = start > 0 ? '…' : '';
  const body = text.slice(start, end).replace(/\s+/g, ' ');
  // Whitespace runs folded to one space move offsets: map each match through the folded body.
  const marks = matches
    .filter(([from, to]) => from >= start && to <= end)
    .map(([from, to]): Mark => {
      const before = foldedLength(text.slice(start, from));
      return [head.length + before, head.length + before + foldedLength(text.slice(from, to))];
    });
  return { excerpt: head + body + (end < text.length ? '…' : ''), marks };
}

const foldedLength = (part: string) => part.replace(/\s+/g, ' ').length;

function nextSpace(text: string, from: number, limit: number): number | undefined {
  const at = text.slice(from, limit).search(/\s/);
  return at < 0 ? undefined : from + at + 1;
}

function previousSpace(text: string, from: number, limit: number): number | undefined {
  const at = text.slice(limit, from).search(/\s\S*$/);
  return at < 0 ? undefined : limit + at;
}
