import { promises as fs } from 'node:fs';

const CHUNK_BYTES = 64 * 1024;

/**
 * The last complete line of a file and the file's size, read backwards from the end in chunks: the cost is the
 * line's length, not the file's. `undefined` for an empty or missing file. A file not ending in a line break
 * (a crash between a row and its `\n`) gets the break first, so the next append starts a line of its own.
 */
export async function readLastLine(filePath: string): Promise<{ line: string | undefined; size: number }> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(filePath, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { line: undefined, size: 0 };
    throw error;
  }
  try {
    let size = (await handle.stat()).size;
    if (size === 0) return { line: undefined, size };
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] !== 0x0a) {
      await handle.write('\n', size);
      size += 1;
    }
    const parts: Buffer[] = [];
    let end = size - 1; // the final `\n`
    while (end > 0) {
      const start = Math.max(0, end - CHUNK_BYTES);
      const chunk = Buffer.alloc(end - start);
      await handle.read(chunk, 0, chunk.length, start);
      const lineBreak = chunk.lastIndexOf(0x0a);
      if (lineBreak >= 0) {
        parts.unshift(chunk.subarray(lineBreak + 1));
        break;
      }
      parts.unshift(chunk);
      end = start;
    }
    return { line: Buffer.concat(parts).toString('utf8'), size };
  } finally {
    await handle.close();
  }
}
