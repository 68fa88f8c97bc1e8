/**
 * Deepest nesting of arrays and objects an intake frame may have, counted from the frame itself. The frame
 * is re-serialised on its way to the host, and JSON.stringify overflows the stack a few thousand levels
 * down (under 5,000 in Node 20); real SDK messages nest about a dozen. Not a setting: no value above the
 * serialiser's own limit would work.
 */
export const INTAKE_MAX_DEPTH = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]);
const CLOSERS = new Set([0x5d, 0x7d]);

/**
 * Whether valid JSON `text` nests arrays and objects deeper than `max`. Scans the text (strings skipped)
 * instead of walking the parsed value: no recursion, no allocation, and it stops at the first level too deep.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (OPENERS.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSERS.has(c)) depth--;
  }
  return false;
}
