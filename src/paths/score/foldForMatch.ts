/**
 * Text prepared for case-insensitive matching: lowercased and NFD-decomposed code point by code point,
 * so `é` typed as one code point matches a name stored decomposed (macOS) and the other way round.
 * `origin[i]` is the UTF-16 index in the original string that folded unit `i` came from; it is `null`
 * when folding kept every index (plain ASCII, the common case, folded with one `toLowerCase`).
 * `charSet` is `charSetOf(text)`: a query whose set is not inside it cannot match, which a single AND
 * tells without reading the text.
 */
export interface FoldedText {
  readonly text: string;
  readonly origin: Int32Array | null;
  readonly charSet: number;
}

export function foldForMatch(original: string): FoldedText {
  if (isAscii(original)) {
    const text = original.toLowerCase();
    return { text, origin: null, charSet: charSetOf(text) };
  }
  let text = '';
  const origin: number[] = [];
  for (let index = 0; index < original.length;) {
    const codePoint = original.codePointAt(index)!;
    const width = codePoint > 0xffff ? 2 : 1;
    const source = original.slice(index, index + width);
    const folded = source.normalize('NFD').toLowerCase().normalize('NFD');
    for (let unit = 0; unit < folded.length; unit += 1) {
      // Same width: unit k came from unit k (surrogate pairs). Otherwise all units point at the start.
      origin.push(folded.length === width ? index + unit : index);
    }
    text += folded;
    index += width;
  }
  return { text, origin: Int32Array.from(origin), charSet: charSetOf(text) };
}

/**
 * The UTF-16 units present in `text`, as bits: one per letter `a`–`z`, then digits, `.`, `/`, `-` and `_`,
 * other ASCII, and everything else. Units that share a bit are told apart by the full match later.
 */
export function charSetOf(text: string): number {
  let set = 0;
  for (let index = 0; index < text.length; index += 1) set |= charSetBit(text.charCodeAt(index));
  return set;
}

/** The `charSet` bit of one folded unit. */
export function charSetBit(code: number): number {
  if (code >= 97 && code <= 122) return 1 << (code - 97);
  if (code >= 48 && code <= 57) return 1 << 26;
  if (code === 46) return 1 << 27;
  if (code === 47) return 1 << 28;
  if (code === 45 || code === 95) return 1 << 29;
  return code < 128 ? 1 << 30 : 1 << 31;
}

export function isAscii(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    if (value.charCodeAt(index) > 0x7f) return false;
  }
  return true;
}
