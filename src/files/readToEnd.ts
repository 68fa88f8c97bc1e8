/** What `readToEnd` needs of an open file: sequential reads (a `FileHandle` in production). */
export interface SequentialReader {
  read(buffer: Buffer, offset: number, length: number, position: null): Promise<{ bytesRead: number }>;
}

/** First buffer when the stat size says little (procfs reports 0): one read of a small file. */
const MIN_BUFFER_BYTES = 64 * 1024;

/**
 * Reads from the current position to end of file, but never more than `maxBytes + 1` bytes: getting
 * that many back tells the caller the content is over its cap. The stat size is only a hint for the
 * first buffer: procfs files (`/proc/self/smaps`, `/proc/kallsyms`) report 0 whatever they hold, and a
 * file can grow between the stat and the read, so the buffer grows until a read returns 0 bytes.
 */
export async function readToEnd(file: SequentialReader, sizeHint: number, maxBytes: number): Promise<Buffer> {
  // One byte past the hint: the read that returns 0 (end of file) then needs no larger buffer.
  let buffer: Buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(sizeHint + 1, MIN_BUFFER_BYTES)));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) break;
      buffer = grown(buffer, Math.min(maxBytes + 1, buffer.length * 2));
    }
    const { bytesRead } = await file.read(buffer, length, buffer.length - length, null);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}

function grown(buffer: Buffer, size: number): Buffer {
  const larger = Buffer.allocUnsafe(size);
  buffer.copy(larger);
  return larger;
}
