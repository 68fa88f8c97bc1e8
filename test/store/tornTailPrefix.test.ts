import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import fc from 'fast-check';
import Datastore from 'nedb-promises';
import { LINE_SAFE_NEDB_HOOKS } from '../../src/store/lineSeparators';
import { dropTornLastLine } from '../../src/store/tornTail';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

type Doc = { _id: string; text?: string; n?: number; tags?: string[] };
type Op = { kind: 'upsert'; id: string; text: string; n: number; tags: string[] } | { kind: 'remove'; id: string };

const NEWLINE = 0x0a;

/** Writes `ops` through nedb (one append per op: a document, or a `$$deleted` marker) and returns the file. */
async function storeFileOf(file: string, ops: readonly Op[]): Promise<Buffer> {
  const db = Datastore.create({ filename: file, autoload: false, ...LINE_SAFE_NEDB_HOOKS });
  await db.load();
  for (const op of ops) {
    if (op.kind === 'upsert') await db.update({ _id: op.id }, { _id: op.id, text: op.text, n: op.n, tags: op.tags }, { upsert: true });
    else await db.remove({ _id: op.id }, {});
  }
  return readFile(file);
}

/**
 * What a file cut at `cut` must load as: nedb's replay (last version of each id wins, a `$$deleted` line
 * removes) over the complete lines of the prefix. A line is complete when all its bytes are there; its
 * newline may be missing (the cut fell just before it).
 */
function expectedAfterCut(file: Buffer, cut: number): Doc[] {
  const docs = new Map<string, Doc>();
  for (let start = 0, end = file.indexOf(NEWLINE); end >= 0 && end <= cut; start = end + 1, end = file.indexOf(NEWLINE, start)) {
    const doc = JSON.parse(file.subarray(start, end).toString('utf8')) as Doc & { $$deleted?: true };
    if (doc.$$deleted) docs.delete(doc._id);
    else docs.set(doc._id, doc);
  }
  return [...docs.values()].sort(byId);
}

const byId = (a: Doc, b: Doc): number => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('upsert' as const),
      id: fc.constantFrom('a', 'b', 'c', 'd', 'é', '✓'),
      // Every code point, newlines, quotes and braces included: a cut inside any of them.
      text: fc.string({ unit: 'binary', maxLength: 40 }),
      n: fc.integer(),
      // U+2028, U+2029 and U+0085 are raw in JSON, and nedb's reader breaks lines at them: they must come back.
      tags: fc.array(fc.constantFrom('}', '{', '\n', '"', '\\', 'x', '\u2028', '\u2029', '\u0085'), { maxLength: 3 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), id: fc.constantFrom('a', 'b', 'c') }) },
);

describe('torn tail repair: any prefix of a store file', () => {
  const tempDir = suiteTempDirs();

  it('recovers every complete line, and nothing else, through nedb load after repair; appends then start on a new line', async () => {
    const dir = await tempDir('torn-prefix-');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArbitrary, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.constantFrom('any', 'lineEnd', 'beforeNewline'),
        async (ops, at, aim) => {
          run += 1;
          const original = path.join(dir, `original-${run}.db`);
          const cutFile = path.join(dir, `cut-${run}.db`);
          try {
            const bytes = await storeFileOf(original, ops);
            const cut = cutPosition(bytes, at, aim);
            await writeFile(cutFile, bytes.subarray(0, cut));
            await dropTornLastLine(cutFile);
            const db = Datastore.create({ filename: cutFile, autoload: false, ...LINE_SAFE_NEDB_HOOKS });
            await db.load();
            expect(((await db.find({})) as Doc[]).sort(byId)).to.deep.equal(expectedAfterCut(bytes, cut));
            await db.insert({ _id: 'after-repair', text: 'x' });
            const reloaded = Datastore.create({ filename: cutFile, autoload: false, ...LINE_SAFE_NEDB_HOOKS });
            await reloaded.load();
            expect(await reloaded.findOne({ _id: 'after-repair' })).to.deep.equal({ _id: 'after-repair', text: 'x' });
          } finally {
            await rm(original, { force: true });
            await rm(cutFile, { force: true });
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** Any byte, or (to hit the edges often) right after a newline or right before one. */
function cutPosition(bytes: Buffer, at: number, aim: 'any' | 'lineEnd' | 'beforeNewline'): number {
  if (aim === 'any') return at % (bytes.length + 1);
  const newlines = [...bytes.keys()].filter((i) => bytes[i] === NEWLINE);
  if (newlines.length === 0) return at % (bytes.length + 1);
  const newline = newlines[at % newlines.length]!;
  return aim === 'lineEnd' ? newline + 1 : newline;
}
