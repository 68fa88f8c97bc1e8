import { expect } from 'chai';
import { appendFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { readToEnd, type SequentialReader } from '../../src/files/readToEnd';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

const KIB = 1024;

/** `size` bytes that differ along the file, so a truncated or reordered read cannot compare equal. */
function pattern(size: number, seed = 0): Buffer {
  return Buffer.from(Array.from({ length: size }, (_, index) => (index * 31 + seed) % 251));
}

describe('readToEnd (the byte reader behind host.read_file)', () => {
  let root: string;
  let file: string;
  beforeEach(() => {
    root = createTempTree({});
    file = join(root, 'growing.bin');
  });
  afterEach(() => removeTempTree(root));

  it('reads past the stat size when the file grew after the stat (buffer grows to end of file)', async () => {
    writeFileSync(file, pattern(10));
    const handle = await open(file, 'r');
    try {
      const staleSize = (await handle.stat()).size;
      const grownBy = pattern(200 * KIB, 7);
      appendFileSync(file, grownBy);
      const bytes = await readToEnd(handle, staleSize, 1024 * KIB);
      expect(bytes.length).to.equal(10 + 200 * KIB);
      expect(bytes.equals(Buffer.concat([pattern(10), grownBy]))).to.equal(true);
    } finally {
      await handle.close();
    }
  });

  it('keeps reading when the file grows while it is being read', async () => {
    const first = pattern(64 * KIB);
    const appended = pattern(100 * KIB, 3);
    writeFileSync(file, first);
    const handle = await open(file, 'r');
    let reads = 0;
    // After the first chunk comes back, the file gets longer: the next reads must find the new bytes.
    const growsAfterFirstRead: SequentialReader = {
      async read(buffer, offset, length, position) {
        const result = await handle.read(buffer, offset, length, position);
        if ((reads += 1) === 1) appendFileSync(file, appended);
        return result;
      },
    };
    try {
      const bytes = await readToEnd(growsAfterFirstRead, first.length, 1024 * KIB);
      expect(reads).to.be.greaterThan(2);
      expect(bytes.equals(Buffer.concat([first, appended]))).to.equal(true);
    } finally {
      await handle.close();
    }
  });

  it('returns exactly maxBytes of a file of that size, and maxBytes + 1 of a larger one (never more)', async () => {
    const maxBytes = 100 * KIB;
    writeFileSync(file, pattern(maxBytes));
    const atCap = await open(file, 'r');
    try {
      expect((await readToEnd(atCap, 0, maxBytes)).length).to.equal(maxBytes);
    } finally {
      await atCap.close();
    }
    writeFileSync(file, pattern(3 * maxBytes));
    const over = await open(file, 'r');
    try {
      const bytes = await readToEnd(over, 0, maxBytes);
      expect(bytes.length).to.equal(maxBytes + 1);
      expect(bytes.equals(pattern(3 * maxBytes).subarray(0, maxBytes + 1))).to.equal(true);
    } finally {
      await over.close();
    }
  });

  it('reads an empty file as zero bytes', async () => {
    writeFileSync(file, '');
    const handle = await open(file, 'r');
    try {
      expect((await readToEnd(handle, 0, KIB)).length).to.equal(0);
    } finally {
      await handle.close();
    }
  });
});
