import { promises as fs } from 'node:fs';

/** How much of the file's end is read at a time while looking for its last line break. */
const CHUNK_BYTES = 64 * 1024;
/**
 * A last line longer than this is never parsed (it would be one string in memory): it is cut. No document
 * we write comes near it, and nedb itself could not hold a line near V8's string limit.
 */
const MAX_UNTERMINATED_LINE_BYTES = 64 * 1024 * 1024;

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * nedb appends one JSON document per line. A crash mid-append leaves an unterminated last line, which nedb
 * counts as corrupt (a small file with one such line is refused as more than 10% corrupt) and which the next
 * append would run into. So before a file is loaded its end is repaired in place, by one `ftruncate` or one
 * `write`, never by rewriting it: a kill at any moment leaves either the file as it was or the repaired file.
 *
 * - An unterminated last line that is a whole JSON object (only its newline was lost) gets the newline: it is
 *   a complete document, what a crash just after its write would have left, so keeping it is right whether
 *   or not the write was acked. A proper prefix of a JSON object is never itself a JSON object, so a cut
 *   document can't pass for a whole one.
 * - Anything else after the last newline (a torn document, zeros a power cut left) is cut off.
 *
 * The file is read backwards from its end in fixed chunks, so files of any size work in little memory.
 * Returns whether the file was changed (a tail cut or a newline added); a missing file is left missing.
 */
export async function dropTornLastLine(filePath: string): Promise<boolean> {
  let file: fs.FileHandle;
  try {
    file = await fs.open(filePath, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    const { size } = await file.stat();
    const lineStart = (await lastNewlineOffset(file, size)) + 1;
    if (lineStart === size) return false;
    if (await isWholeDocument(file, lineStart, size)) {
      await file.write('\n', size);
    } else {
      await file.truncate(lineStart);
    }
    await file.sync();
    return true;
  } finally {
    await file.close();
  }
}

/** The offset of the file's last `\n`, or -1. UTF-8 never has the byte 0x0a inside a character. */
async function lastNewlineOffset(file: fs.FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(CHUNK_BYTES);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - CHUNK_BYTES);
    const { bytesRead } = await file.read(chunk, 0, end - start, start);
    const found = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (found >= 0) return start + found;
    end = start;
  }
  return -1;
}

async function isWholeDocument(file: fs.FileHandle, start: number, end: number): Promise<boolean> {
  const length = end - start;
  if (length < 2 || length > MAX_UNTERMINATED_LINE_BYTES) return false;
  // Cheap checks first: a torn line rarely ends in `}`, and then it is never read whole.
  if ((await byteAt(file, start)) !== OPEN_BRACE || (await byteAt(file, end - 1)) !== CLOSE_BRACE) return false;
  const line = Buffer.alloc(length);
  await file.read(line, 0, length, start);
  try {
    const parsed: unknown = JSON.parse(line.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

async function byteAt(file: fs.FileHandle, offset: number): Promise<number> {
  const one = Buffer.alloc(1);
  await file.read(one, 0, 1, offset);
  return one[0]!;
}
