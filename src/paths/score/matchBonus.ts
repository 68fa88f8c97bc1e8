/**
 * Per-position bonuses of the fuzzy scorer, after fzf's `algo.go` and VS Code's `fuzzyScorer.ts`:
 * a match that starts a word is worth more than one in the middle of a word.
 */
export const SCORE = {
  match: 16,
  gapStart: -3,
  gapExtension: -1,
  /** Start of the text or after a space. */
  boundaryWhite: 10,
  /** After `/`: a path segment starts. */
  boundaryDelimiter: 9,
  /** After `.`, `_`, `-` and other punctuation, and on the punctuation itself. */
  boundary: 8,
  /** `fooBar` (`B`) and `file2` (`2`). */
  camel: 7,
  /** Floor of a run of consecutive matches: a gap costs more than breaking a run gains. */
  consecutive: 4,
  /** The first query character is the most deliberate one. */
  firstCharMultiplier: 2,
} as const;

const enum CharClass {
  White,
  Delimiter,
  NonWord,
  Lower,
  Upper,
  Digit,
}

function classOf(code: number): CharClass {
  if (code >= 97 && code <= 122) return CharClass.Lower;
  if (code >= 65 && code <= 90) return CharClass.Upper;
  if (code >= 48 && code <= 57) return CharClass.Digit;
  if (code === 32 || code === 9) return CharClass.White;
  if (code === 47) return CharClass.Delimiter;
  if (code < 128) return CharClass.NonWord;
  return classOfNonAscii(String.fromCharCode(code));
}

function classOfNonAscii(char: string): CharClass {
  if (/\s/.test(char)) return CharClass.White;
  if (char !== char.toLowerCase()) return CharClass.Upper;
  // Combining marks, other letters and surrogate halves read as lowercase word characters.
  return CharClass.Lower;
}

/** Bonus for matching `original[index]`, judged against the character before it. */
export function bonusAt(original: string, index: number): number {
  const code = original.charCodeAt(index);
  const previousCode = index === 0 ? START_OF_TEXT : original.charCodeAt(index - 1);
  if (code < 128 && previousCode < 128) return asciiBonus(ASCII_CLASS[previousCode], ASCII_CLASS[code]);
  return bonusBetween(classOf(previousCode), classOf(code));
}

/**
 * Bonus for matching the first unit of `name` inside a relative path, where it follows a `/`: what
 * `bonusAt(path, path.length - name.length)` gives, without reading (and flattening) the path string.
 */
export function bonusAfterSlash(name: string): number {
  const code = name.charCodeAt(0);
  if (code < 128) return asciiBonus(ASCII_CLASS[SLASH_CODE], ASCII_CLASS[code]);
  return bonusBetween(CharClass.Delimiter, classOf(code));
}

const SLASH_CODE = 0x2f;

/** The text's start counts as whitespace before its first character. */
const START_OF_TEXT = 32;
const CLASS_COUNT = 6;

/**
 * Tables for ASCII text, where names are folded a character at a time without a call per character:
 * `ASCII_CLASS[code]` is a class, `asciiBonus(previous, current)` the bonus of a pair of classes, and
 * `START_CLASS` the class the start of a text counts as.
 */
export const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) => classOf(code));
export const START_CLASS = ASCII_CLASS[START_OF_TEXT];

export function asciiBonus(previousClass: number, currentClass: number): number {
  return ASCII_BONUS[previousClass * CLASS_COUNT + currentClass];
}

function bonusBetween(previous: CharClass, current: CharClass): number {
  if (current === CharClass.White) return SCORE.boundaryWhite;
  if (current === CharClass.NonWord || current === CharClass.Delimiter) return SCORE.boundary;
  if (previous === CharClass.White) return SCORE.boundaryWhite;
  if (previous === CharClass.Delimiter) return SCORE.boundaryDelimiter;
  if (previous === CharClass.NonWord) return SCORE.boundary;
  if (previous === CharClass.Lower && current === CharClass.Upper) return SCORE.camel;
  if (previous !== CharClass.Digit && current === CharClass.Digit) return SCORE.camel;
  return 0;
}

const ASCII_BONUS = Int8Array.from({ length: CLASS_COUNT * CLASS_COUNT }, (_, pair) =>
  bonusBetween(Math.floor(pair / CLASS_COUNT), pair % CLASS_COUNT),
);
