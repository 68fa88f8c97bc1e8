import { promises as fs } from 'node:fs';
import { replaceFile } from './replaceFile';

/**
 * nedb writes one `JSON.stringify` line per document but reads its file back through a line splitter that
 * also breaks at U+2028, U+2029 and U+0085, which JSON leaves raw inside strings. A title pasted from a web
 * page would cut its record in two, and a small file with such a record is refused as corrupt at the next
 * start. These characters can only sit inside JSON strings, where `\uXXXX` means the same character, so
 * escaping them keeps every document as it was and every line whole.
 */
const RAW_SEPARATORS = /[\u2028\u2029\u0085]/g;

const escaped = (separator: string): string => `\\u${separator.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** nedb's `afterSerialization` hook: one serialized document in, the same line with those characters escaped. */
export function escapeLineSeparators(json: string): string {
  return json.replace(RAW_SEPARATORS, escaped);
}

/** The pair of hooks every nedb file is opened with; JSON.parse reads the escapes back, but nedb wants both. */
export const LINE_SAFE_NEDB_HOOKS = { afterSerialization: escapeLineSeparators, beforeDeserialization: (line: string): string => line };

/**
 * Repairs a file an earlier version wrote with those characters raw, before nedb loads it: the file is
 * replaced in one step (a kill leaves the old file or the repaired one). Returns whether it was changed;
 * a missing file is left missing.
 */
export async function escapeRawLineSeparators(filePath: string): Promise<boolean> {
  let text: string;
  try {
    text = await fs.readFile(filePath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  RAW_SEPARATORS.lastIndex = 0;
  if (!RAW_SEPARATORS.test(text)) return false;
  await replaceFile(filePath, escapeLineSeparators(text));
  return true;
}
