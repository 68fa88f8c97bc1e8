import { charSetBit, foldForMatch, isAscii, type FoldedText } from './foldForMatch';
import { ASCII_CLASS, START_CLASS, asciiBonus, bonusAt } from './matchBonus';

/**
 * A text as the scorer reads it: its folded UTF-16 units (`foldForMatch`) in a typed array, and beside each
 * unit the bonus of matching it there (`matchBonus.ts`; units that continue one original character, such
 * as an NFD accent mark, get none). Typed arrays, because on the 2-core benchmark machine reading a string
 * with `charCodeAt` costs ~4.5 ns a unit and a typed array ~1.7 ns, and the ranker reads every name.
 */
export interface FoldedUnits {
  readonly units: Uint16Array;
  readonly bonus: Int8Array;
}

/**
 * Writes the folded units of `text` and their bonuses at `at` and returns how many were written.
 * `folded` may pass `foldForMatch(text)` when the caller already has it.
 */
export function writeFoldedUnits(text: string, units: Uint16Array, bonus: Int8Array, at: number, folded: FoldedText | null = null): number {
  if (folded === null && isAscii(text)) {
    // `bonusAt` per character, without a call per character: this runs for every name of a listing.
    let previousClass = START_CLASS;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      const currentClass = ASCII_CLASS[code];
      units[at + index] = code >= 65 && code <= 90 ? code + 32 : code;
      bonus[at + index] = asciiBonus(previousClass, currentClass);
      previousClass = currentClass;
    }
    return text.length;
  }
  const { text: foldedText, origin } = folded ?? foldForMatch(text);
  for (let column = 0; column < foldedText.length; column += 1) {
    units[at + column] = foldedText.charCodeAt(column);
    const index = origin === null ? column : origin[column];
    const continues = origin !== null && column > 0 && origin[column - 1] === index;
    bonus[at + column] = continues ? 0 : bonusAt(text, index);
  }
  return foldedText.length;
}

/** What `writeFoldedAscii` returns for a text with a non-ASCII unit. */
export const NOT_ASCII = -1;

/**
 * The one-pass case of `writeFoldedUnits` for a listing's names: writes an ASCII text's folded units and
 * bonuses at `at` and returns its `charSet` (`foldForMatch.ts`), or NOT_ASCII on meeting a non-ASCII
 * unit (what was written then is to be overwritten). Never more than `text.length` units.
 */
export function writeFoldedAscii(text: string, units: Uint16Array, bonus: Int8Array, at: number): number {
  let set = 0;
  let previousClass = START_CLASS;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 0x7f) return NOT_ASCII;
    const folded = code >= 65 && code <= 90 ? code + 32 : code;
    const currentClass = ASCII_CLASS[code];
    units[at + index] = folded;
    bonus[at + index] = asciiBonus(previousClass, currentClass);
    set |= charSetBit(folded);
    previousClass = currentClass;
  }
  return set;
}

/** The folded units of one text in arrays of their own. */
export function foldedUnitsOf(text: string): FoldedUnits {
  const folded = isAscii(text) ? null : foldForMatch(text);
  const length = folded === null ? text.length : folded.text.length;
  const units = new Uint16Array(length);
  const bonus = new Int8Array(length);
  writeFoldedUnits(text, units, bonus, 0, folded);
  return { units, bonus };
}
