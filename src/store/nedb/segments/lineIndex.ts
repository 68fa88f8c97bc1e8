import { promises as fs } from 'node:fs';

/** A line start is remembered at least every this many lines… */
export const LINES_PER_MARK = 128;
/** …and every this many bytes: a page read skips at most this much of the file, however long its rows are. */
export const BYTES_PER_MARK = 64 * 1024;
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Where lines start in a file that is only ever appended to (a thread's segment): marks (line number, byte
 * offset) at most LINES_PER_MARK lines and about BYTES_PER_MARK bytes apart, learnt while reading, so a later
 * read starts at the mark just before the lines it wants instead of at the start of the file. A 100k-row
 * thread of realistic rows needs ~800 marks, not its rows in memory; one of 16 KiB rows a mark per 4 rows,
 * so resuming a read anywhere (an SSE reader after each pause) never re-reads more than a mark's span.
 * Appends never move a line, so marks stay true until the file is removed (`reset`).
 */
export class LineIndex {
  private markLines: number[] = [0];
  private markOffsets: number[] = [0];

  reset(): void {
    this.markLines = [0];
    this.markOffsets = [0];
  }

  /** Marks known: what the index holds in memory is about twice this many numbers. */
  get marks(): number {
    return this.markLines.length;
  }

  /**
   * The text of lines `first … last` (0-based, inclusive, fewer at the end of the file), read from the mark
   * at or before `first`; the lines before `first` are only scanned for their newlines, never parsed.
   */
  async readLines(filePath: string, first: number, last: number): Promise<string[]> {
    const markIndex = this.markBefore(first);
    let line = this.markLines[markIndex]!;
    let position = this.markOffsets[markIndex]!;
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
          this.learn(line, position + start);
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

  /** The last mark at or before `line` (binary search: marks are in line order). */
  private markBefore(line: number): number {
    let low = 0;
    let high = this.markLines.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.markLines[middle]! <= line) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** Marks where `line` starts when it is past the last mark by a mark's span (reads go forwards only). */
  private learn(line: number, offset: number): void {
    const lastIndex = this.markLines.length - 1;
    const lastLine = this.markLines[lastIndex]!;
    if (line <= lastLine) return;
    if (line - lastLine >= LINES_PER_MARK || offset - this.markOffsets[lastIndex]! >= BYTES_PER_MARK) {
      this.markLines.push(line);
      this.markOffsets.push(offset);
    }
  }
}
