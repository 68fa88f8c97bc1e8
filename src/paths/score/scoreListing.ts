import { charSetOf } from './foldForMatch';
import { NO_MATCH, fuzzyScoreOneUnit } from './fuzzyMatch';
import { AT_ROOT, type NameIndex } from './nameIndex';
import { createPathAligner } from './pathAlignment';
import { matchedBeforeName } from './pathPrefilter';
import { IGNORED_PENALTY, nameBonus, scoreNameUnits, type PreparedQuery } from './scoreEntry';
import type { WalkEntry } from '../walk/walkEntry';

/**
 * Scores every entry of a listing (its `NameIndex` given): writes `scores[slot]` for each matching slot
 * (ignored entries less `IGNORED_PENALTY`), the matching slots in order into `slots`, and returns how many matched.
 */
export function scoreListing(
  query: PreparedQuery,
  entries: readonly WalkEntry[],
  index: NameIndex,
  scores: Int32Array,
  slots: Int32Array,
): number {
  if (query.matchesPath) return scorePathQuery(query, entries, index, scores, slots);
  if (query.folded.text.length === 1) return scoreOneUnitQuery(query, entries, index, scores, slots);
  return scoreNameQuery(query, entries, index, scores, slots);
}

/**
 * A one-unit name query (a first letter, the keystroke that matches the most names): `scoreNameUnits` inlined, the
 * same scores. The name bonus applies only to a name that starts with the unit, so it is asked for only then.
 */
function scoreOneUnitQuery(
  query: PreparedQuery,
  entries: readonly WalkEntry[],
  index: NameIndex,
  scores: Int32Array,
  slots: Int32Array,
): number {
  const wanted = query.folded.charSet;
  const char = query.folded.text.charCodeAt(0);
  const { units, bonus, charSet, start, ignored } = index;
  let count = 0;
  for (let slot = 0; slot < entries.length; slot += 1) {
    if ((charSet[slot] & wanted) !== wanted) continue;
    const from = start[slot];
    const length = start[slot + 1] - from;
    const fuzzy = fuzzyScoreOneUnit(char, units, bonus, from, length);
    if (fuzzy === NO_MATCH) continue;
    const named = units[from] === char ? nameBonus(query, units, from, length) : 0;
    scores[slot] = fuzzy + named - ignored[slot] * IGNORED_PENALTY;
    slots[count] = slot;
    count += 1;
  }
  return count;
}

/** A name query: only names that have every unit of the query are scored. */
function scoreNameQuery(
  query: PreparedQuery,
  entries: readonly WalkEntry[],
  index: NameIndex,
  scores: Int32Array,
  slots: Int32Array,
): number {
  const wanted = query.folded.charSet;
  const { charSet, start, ignored } = index;
  let count = 0;
  for (let slot = 0; slot < entries.length; slot += 1) {
    if ((charSet[slot] & wanted) !== wanted) continue;
    const score = scoreNameUnits(query, index, start[slot], start[slot + 1] - start[slot]);
    if (score === NO_MATCH) continue;
    scores[slot] = score - ignored[slot] * IGNORED_PENALTY;
    slots[count] = slot;
    count += 1;
  }
  return count;
}

/**
 * Scores every entry whose relative path has the query as a subsequence. The prefilter's greedy match
 * state after each directory's path is kept by slot, so each entry reads only its own name (walks list a
 * directory before what it holds; otherwise, or when the directory is not in the listing,
 * `matchedBeforeName`); the score is then continued from the directory's alignment (`pathAlignment.ts`).
 */
function scorePathQuery(
  query: PreparedQuery,
  entries: readonly WalkEntry[],
  index: NameIndex,
  scores: Int32Array,
  slots: Int32Array,
): number {
  const text = query.folded.text;
  const { units, start, charSet, parentSlot, isDirectory, ignored } = index;
  const UNKNOWN = -1;
  const matchedThrough = new Int32Array(entries.length).fill(UNKNOWN);
  // charSetOf(text.slice(k)): a file whose name lacks a unit still to be matched is out without reading it.
  const stillWanted = Int32Array.from({ length: text.length + 1 }, (_, k) => charSetOf(text.slice(k)));
  const aligner = createPathAligner(text, index);
  let count = 0;
  for (let slot = 0; slot < entries.length; slot += 1) {
    const parent = parentSlot[slot];
    let matched = parent === AT_ROOT ? 0 : parent >= 0 ? matchedThrough[parent] : UNKNOWN;
    if (matched === UNKNOWN) matched = matchedBeforeName(text, entries[slot]);
    else if (parent !== AT_ROOT && matched < text.length && text.charCodeAt(matched) === SLASH) matched += 1;
    // Directories are read in full: what lies below them starts from their state.
    if ((charSet[slot] & stillWanted[matched]) !== stillWanted[matched] && isDirectory[slot] === 0) continue;
    let wanted = text.charCodeAt(matched);
    for (let unit = start[slot]; unit < start[slot + 1] && matched < text.length; unit += 1) {
      if (units[unit] === wanted) wanted = text.charCodeAt(++matched);
    }
    matchedThrough[slot] = matched;
    if (matched < text.length) continue;
    const fuzzy = aligner.score(entries[slot], slot);
    if (fuzzy === NO_MATCH) continue;
    scores[slot] = fuzzy + nameBonus(query, units, start[slot], start[slot + 1] - start[slot]) - ignored[slot] * IGNORED_PENALTY;
    slots[count] = slot;
    count += 1;
  }
  return count;
}

const SLASH = 0x2f;
