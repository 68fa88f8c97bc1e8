/**
 * Text prepared for case-insensitive matching: lowercased and NFD-decomposed code point by code point,
 * so `é` typed as one code point matches a name stored decomposed (macOS) and the other way round.
 * `origin[i]` is the UTF-16 index in the original string that folded unit `i` came from; it is `null`
 * when folding kept every index (plain ASCII, the common case, folded with one `toLowerCase`).
 */
export interface FoldedText {
  readonly text: string;
  readonly origin: Int32Array | null;
}

export function foldForMatch(original: string): FoldedText {
  if (isAscii(original)) return { text: original.toLowerCase(), origin: null };
  let text = '';
  const origin: number[] = [];
  for (let index = 0; index < original.length; ) {
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
  return { text, origin: Int32Array.from(origin) };
}

function isAscii(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    if (value.charCodeAt(index) > 0x7f) return false;
  }
  return true;
}
