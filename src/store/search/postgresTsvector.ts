import { wordsOf } from './searchableText';

/**
 * PostgreSQL's limits on a lexeme and its positions (`ts_type.h`): a word of 2,047 bytes or more is left
 * out (and takes no position), a position past 16,383 counts as 16,383, a word keeps at most 255 positions.
 */
const MAX_WORD_BYTES = 2_047;
const LAST_POSITION = 16_383;
const MAX_POSITIONS = 255;

/** A word as a tsvector or tsquery literal: quoted, so nothing in it reads as an operator. */
const quoted = (word: string) => `'${word.replace(/['\\]/g, '\\$&')}'`;

/** A UTF-16 unit is at most 3 UTF-8 bytes, so only a long word is measured. */
const fits = (word: string) => word.length * 3 < MAX_WORD_BYTES || Buffer.byteLength(word) < MAX_WORD_BYTES;

/**
 * A row's `tsvector` as PostgreSQL reads it (`'word':1,4 'other':2`), cut in Node by `wordsOf` (the cut the
 * embedded engine uses) instead of by `to_tsvector` in the database (migration 007: that was the index's
 * largest cost). The positions are what `to_tsvector('simple', …)` gives for the same words, so `ts_rank`
 * orders hits as before.
 */
export function tsvectorOf(text: string): string {
  const positions = new Map<string, number[]>();
  let position = 0;
  for (const word of wordsOf(text)) {
    if (!fits(word)) continue;
    position = Math.min(position + 1, LAST_POSITION);
    const seen = positions.get(word);
    if (!seen) positions.set(word, [position]);
    else if (seen.length < MAX_POSITIONS && seen.at(-1) !== position) seen.push(position);
  }
  return Array.from(positions, ([word, at]) => `${quoted(word)}:${at.join(',')}`).join(' ');
}

/** Query words (`queryWordsOf`) as a `tsquery` of them all (what `plainto_tsquery` made of them), or undefined if none can match. */
export function tsqueryOf(words: readonly string[]): string | undefined {
  const kept = words.filter(fits);
  return kept.length === 0 ? undefined : kept.map(quoted).join(' & ');
}
