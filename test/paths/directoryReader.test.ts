import { expect } from 'chai';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import type { DirectoryContents } from '../../src/paths/walk/directoryFacts';
import {
  BACKGROUND_NICENESS,
  createWorkerDirectoryReader,
  readDirectoriesSync,
  sharedBackgroundDirectoryReader,
} from '../../src/paths/walk/directoryReader';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

/** name → kind code, so assertions do not depend on the order the disk returned entries in. */
function kindsByName(contents: DirectoryContents | null): Record<string, string> {
  if (contents === null) return {};
  return Object.fromEntries(contents.names.map((name, index) => [name, contents.kinds[index]!]));
}

describe('directory reader (walk reads on worker threads)', () => {
  let root: string;

  before(() => {
    root = createTempTree({
      'file.ts': '',
      'with space.md': '',
      ['cafe\u0301.txt']: '',
      '.env': '',
      src: { 'index.ts': '' },
      empty: {},
      'link-to-src': { symlink: 'src' },
      'link-to-file': { symlink: 'file.ts' },
      loop: { symlink: '.' },
      pipe: { fifo: true },
    });
  });
  after(() => removeTempTree(root));

  it('names every entry once and tells files and directories from links, FIFOs and the rest without opening them', async () => {
    const [contents] = await createWorkerDirectoryReader(2).read([root]);
    expect(kindsByName(contents ?? null)).to.deep.equal({
      'file.ts': 'f',
      'with space.md': 'f',
      ['cafe\u0301.txt']: 'f',
      '.env': 'f',
      src: 'd',
      empty: 'd',
      'link-to-src': '-',
      'link-to-file': '-',
      loop: '-',
      pipe: '-',
    });
  });

  it('answers in the order asked: an empty directory has no names, a missing one is null', async () => {
    const contents = await createWorkerDirectoryReader(2).read([
      join(root, 'src'),
      join(root, 'empty'),
      join(root, 'gone'),
      join(root, 'file.ts'),
    ]);
    expect(contents).to.deep.equal([{ names: ['index.ts'], kinds: 'f' }, { names: [], kinds: '' }, null, null]);
  });

  it('gives the same answer on worker threads as in this thread, for many concurrent batches', async () => {
    const many = createTempTree(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`d${i}`, { [`f${i}.ts`]: '', [`sub${i}`]: {} }])));
    try {
      const paths = Array.from({ length: 60 }, (_, i) => join(many, `d${i}`));
      const reader = createWorkerDirectoryReader(3);
      const batches = [paths.slice(0, 7), paths.slice(7, 30), paths.slice(30)];
      const answers = (await Promise.all(batches.map((batch) => reader.read(batch)))).flat();
      const inThread = readDirectoriesSync(paths);
      answers.forEach((contents, index) => {
        expect(contents?.names.join('/')).to.equal(inThread[4 * index]);
        expect(contents?.kinds).to.equal(inThread[4 * index + 1]);
        expect(kindsByName(contents ?? null)).to.deep.equal({ [`f${index}.ts`]: 'f', [`sub${index}`]: 'd' });
      });
    } finally {
      removeTempTree(many);
    }
  });

  it('stats directories on worker threads as the cached listing needs: inode and times, null for anything else', async () => {
    const [src, file, link, gone] = await createWorkerDirectoryReader(2).stat([
      join(root, 'src'),
      join(root, 'file.ts'),
      join(root, 'link-to-src'),
      join(root, 'gone'),
    ]);
    const stats = lstatSync(join(root, 'src'));
    expect(src).to.deep.equal({ ino: stats.ino, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs });
    expect([file, link, gone]).to.deep.equal([null, null, null]);
  });

  it('the background reader runs on a thread of lower priority (Linux: per thread), and the process keeps its own', async function () {
    if (process.platform !== 'linux') this.skip();
    const niceOfThreads = (): number[] =>
      readdirSync('/proc/self/task').flatMap((thread) => {
        const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
        // Fields after the command's closing parenthesis; the nice value is the 19th field of the line.
        return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
      });
    const before = getPriority();
    await sharedBackgroundDirectoryReader().stat([root]);
    expect(getPriority()).to.equal(before);
    expect(niceOfThreads()).to.include(BACKGROUND_NICENESS);
    expect(niceOfThreads().filter((nice) => nice === before).length).to.be.greaterThan(1);
  });
});
