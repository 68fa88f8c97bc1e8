import { appendFile, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import Datastore from 'nedb-promises';
import { dropTornLastLine } from '../../src/store/tornTail';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const line = (id: string, text = 'x'): string => JSON.stringify({ _id: id, text }) + '\n';

describe('torn tail repair', () => {
  const tempDir = suiteTempDirs();
  let dir: string;
  beforeEach(async () => (dir = await tempDir('torn-tail-')));

  async function fileWith(content: string | Buffer): Promise<string> {
    const file = path.join(dir, 'data.db');
    await writeFile(file, content);
    return file;
  }

  async function loadIds(file: string): Promise<string[]> {
    const db = Datastore.create({ filename: file, autoload: false });
    await db.load();
    return ((await db.find({}).sort({ _id: 1 })) as Array<{ _id: string }>).map((doc) => doc._id);
  }

  it('leaves a missing file missing and a file ending in a newline untouched', async () => {
    expect(await dropTornLastLine(path.join(dir, 'none.db'))).to.equal(false);
    expect(
      await stat(path.join(dir, 'none.db')).then(
        () => 'exists',
        (error: NodeJS.ErrnoException) => error.code,
      ),
    ).to.equal('ENOENT');
    const content = line('a') + line('b');
    const file = await fileWith(content);
    expect(await dropTornLastLine(file)).to.equal(false);
    expect(await readFile(file, 'utf8')).to.equal(content);
    const empty = await fileWith('');
    expect(await dropTornLastLine(empty)).to.equal(false);
    expect(await readFile(empty, 'utf8')).to.equal('');
  });

  it('cuts a torn last line in place, keeping every complete line, and nedb then loads them all', async () => {
    const complete = line('a', 'ünïcødé ✓') + line('b');
    const file = await fileWith(complete + line('c').slice(0, 12));
    const before = await stat(file);
    expect(await dropTornLastLine(file)).to.equal(true);
    expect(await readFile(file, 'utf8')).to.equal(complete);
    expect((await stat(file)).ino, 'the same file, not a rewritten copy').to.equal(before.ino);
    expect(await loadIds(file)).to.deep.equal(['a', 'b']);
  });

  it('keeps a last document that lost only its newline, and the next append starts on a line of its own', async () => {
    const file = await fileWith(line('a') + line('b').trimEnd());
    expect(await dropTornLastLine(file)).to.equal(true);
    expect(await readFile(file, 'utf8')).to.equal(line('a') + line('b'));
    await appendFile(file, line('c'));
    expect(await loadIds(file)).to.deep.equal(['a', 'b', 'c']);
  });

  it('cuts a line that only looks whole: braces in a string, a cut inside a character, zeros left by a power cut', async () => {
    const head = line('a');
    for (const tail of [
      '{"_id":"b","text":"}"',
      '{"_id":"b","text":"}',
      Buffer.from('{"_id":"b","text":"✓"}').subarray(0, 22).toString('latin1'),
      '\u0000'.repeat(5000),
      '   ',
      '[1]',
    ]) {
      const file = await fileWith(Buffer.concat([Buffer.from(head), Buffer.from(tail, 'latin1')]));
      expect(await dropTornLastLine(file), JSON.stringify(tail)).to.equal(true);
      expect(await readFile(file, 'utf8')).to.equal(head);
    }
  });

  it('cuts a file that is one torn line down to empty, which nedb loads as empty', async () => {
    const file = await fileWith('{"_id":"a","te');
    expect(await dropTornLastLine(file)).to.equal(true);
    expect((await stat(file)).size).to.equal(0);
    expect(await loadIds(file)).to.deep.equal([]);
  });

  it('repairs a file larger than the longest string node can hold (sparse, 600 MiB)', async () => {
    // A hole of zeros in the middle: only the end is ever read, so its size does not matter.
    const file = await fileWith(line('a'));
    await truncate(file, 600 * 1024 * 1024);
    const tail = '\n' + line('b') + line('c');
    await appendFile(file, tail + '{"_id":"d","te');
    const size = (await stat(file)).size;
    expect(await dropTornLastLine(file)).to.equal(true);
    expect((await stat(file)).size).to.equal(size - '{"_id":"d","te'.length);
  });

  it('finds the last line across 600 MiB of zeros a power cut left at the end', async () => {
    const complete = line('a') + line('b');
    const file = await fileWith(complete);
    await truncate(file, 600 * 1024 * 1024);
    expect(await dropTornLastLine(file)).to.equal(true);
    expect(await readFile(file, 'utf8')).to.equal(complete);
  });
});
