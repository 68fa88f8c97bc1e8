import { promises as fs } from 'node:fs';

/** Every this many lines, the byte where a line starts is remembered: a page read skips at most this many. */
export const LINES_PER_MARK = 128;
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Where lines start in a file that is only ever appended to (a thread's segment): the byte offset of line 0,
 * LINES_PER_MARK, 2 × LINES_PER_MARK… learnt while reading, so a later read starts at the mark just before
 * the lines it wants instead of at the start of the file. A 100k-row thread needs ~800 numbers, not its rows
 * in memory. Appends never move a line, so marks stay true until the file is removed (`reset`).
 */
export class LineIndex {
  private marks: number[] = [0];

  reset(): void {
    this.marks = [0];
  }

  /**
   * The text of lines `first … last` (0-based, inclusive, fewer at the end of the file), read from the mark
   * at or before `first`; the lines before `first` are only scanned for their newlines, never parsed.
   */
  async readLines(filePath: string, first: number, last: number): Promise<string[]> {
    const markIndex = Math.min(Math.floor(first / LINES_PER_MARK), this.marks.length - 1);
    let line = markIndex * LINES_PER_MARK;
    let position = this.marks[markIndex]!;
    const wanted: string[] = [];
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(filePath, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let carried: Buffer[] = [];
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
        if (bytesRead === 0) return wanted; // a last line without its newline is torn: not a row
        let start = 0;
        for (let end = buffer.indexOf(NEWLINE, 0); end !== -1 && end < bytesRead; end = buffer.indexOf(NEWLINE, start)) {
          if (line >= first) {
            const piece = buffer.subarray(start, end);
            wanted.push(carried.length ? Buffer.concat([...carried, piece]).toString('utf8') : piece.toString('utf8'));
          }
          carried = [];
          line += 1;
          start = end + 1;
          if (line % LINES_PER_MARK === 0 && line / LINES_PER_MARK === this.marks.length) this.marks.push(position + start);
          if (line > last) return wanted;
        }
        // The rest of the chunk is the start of a line that goes on in the next one.
        if (line >= first) carried.push(Buffer.from(buffer.subarray(start, bytesRead)));
        position += bytesRead;
      }
    } finally {
      await handle.close();
    }
  }
}
