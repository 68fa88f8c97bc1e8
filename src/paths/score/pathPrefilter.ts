import { foldForMatch, isAscii } from './foldForMatch';
import type { WalkEntry } from '../walk/walkEntry';

/**
 * The cheap test before scoring a path query: how many units of the folded query match greedily through
 * an entry's directory and the `/` after it. Folding works code point by code point, so a path folds to
 * its directory's folded path + `/` + its folded name: the state after each directory is computed once,
 * kept on the directory entry, and shared by everything below it. The caller continues over the name.
 */
export function matchedBeforeName(query: string, entry: WalkEntry): number {
  const parent = entry.parent;
  if (parent === null) return 0;
  let matched: number;
  if (parent !== undefined) matched = matchedThrough(query, parent);
  else {
    // An entry made without its tree: read its whole directory part.
    const directoryLength = entry.path.length - entry.name.length - 1;
    if (directoryLength <= 0) return 0;
    matched = advance(query, 0, foldedText(entry.path.slice(0, directoryLength)));
  }
  return matched < query.length && query.charCodeAt(matched) === SLASH ? matched + 1 : matched;
}

/** Units of `query` matched greedily through `directory`'s whole path, memoised on the entry. */
function matchedThrough(query: string, directory: WalkEntry): number {
  if (directory.prefixQuery === query) return directory.prefixMatched!;
  const matched = advance(query, matchedBeforeName(query, directory), foldedText(directory.name));
  directory.prefixQuery = query;
  directory.prefixMatched = matched;
  return matched;
}

const SLASH = 0x2f;

function advance(query: string, matched: number, text: string): number {
  let next = matched;
  for (let index = 0; index < text.length && next < query.length; index += 1) {
    if (text.charCodeAt(index) === query.charCodeAt(next)) next += 1;
  }
  return next;
}

function foldedText(text: string): string {
  return isAscii(text) ? text.toLowerCase() : foldForMatch(text).text;
}
