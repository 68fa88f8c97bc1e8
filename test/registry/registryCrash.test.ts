import { appendFile, mkdir, readdir, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { openRegistry } from '../../src/registry/registry';
import type { FsyncMode } from '../../src/store/fsyncMode';
import { crashRandom, expectAckedExactlyOnce, runToEnd, runUntilKilled } from '../helpers/crash/harness';
import { recordFor } from '../helpers/crash/childRegistry';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const CHILD = 'test/helpers/crash/childRegistry.ts';
const NAMES = ['projects', 'hosts', 'environments', 'threads'] as const;
const MODES: FsyncMode[] = ['batch', 'always', 'off'];

/** Every record of the registry in `dataDir` as `<collection>/<id>`, and those replaced as `put:<collection>/<id>`. */
async function storedKeys(dataDir: string): Promise<string[]> {
  const registry = await openRegistry({ dataDir, fsync: 'off' });
  try {
    const keys: string[] = [];
    for (const name of NAMES) {
      for (const record of await registry[name].find()) {
        keys.push(`${name}/${record.id}`);
        if (JSON.stringify(record).includes('replaced')) keys.push(`put:${name}/${record.id}`);
      }
    }
    return keys;
  } finally {
    await registry.close();
  }
}

/** What a kill mid-append leaves, put at the end of one of the registry's files. */
async function tearTail(dataDir: string, name: string, id: string): Promise<void> {
  await appendFile(path.join(dataDir, 'registry', `${name}.db`), JSON.stringify({ id, _id: id, title: 'torn' }).slice(0, 25));
}

describe('registry crash safety (SIGKILLed children)', function () {
  this.timeout(240_000);
  const tempDir = suiteTempDirs();

  it('keeps every acked write and replacement when killed at random moments while starting or writing, in each fsync mode', async () => {
    const random = crashRandom();
    const dataDir = await tempDir('registry-crash-');
    const acked: string[] = [];
    for (let round = 0; round < 6; round += 1) {
      const mode = MODES[round % MODES.length]!;
      if (round > 0) await tearTail(dataDir, NAMES[round % NAMES.length]!, `torn_${round}`);
      // Every other round the kill may also land in the start (repair, load, compaction) before any write.
      const after = round % 2 === 0 ? /^ready / : /^starting$/;
      const delayMs = random.between(0, 1500);
      const run = await runUntilKilled({ script: CHILD, args: [dataDir, '1000000'], env: { ATS_FSYNC: mode }, after, delayMs });
      expect(run.killed, `round ${round} ended by itself: ${run.stderr}`).to.equal(true);
      acked.push(...run.acked);
      const context = `round ${round}, killed ${delayMs} ms after ${after} (ATS_FSYNC=${mode}, ${random.describe()})`;
      const stored = await storedKeys(dataDir);
      expectAckedExactlyOnce(acked, stored, context);
      expect(
        stored.filter((key) => key.includes('torn_')),
        `${context}: a torn line was loaded`,
      ).to.deep.equal([]);
    }
    expect(acked.length, 'no write was acked in any round: the kills came too early to test anything').to.be.greaterThan(0);
  });

  it('loses nothing when killed during start-up (torn-tail repair, load, compaction) of a large registry, round after round', async () => {
    const random = crashRandom();
    const dataDir = await tempDir('registry-crash-start-');
    const count = 25_000;
    const ids = Array.from({ length: count }, (_, n) => `thr_big_${n}`);
    await mkdir(path.join(dataDir, 'registry'));
    await writeFile(
      path.join(dataDir, 'registry', 'threads.db'),
      ids.map((id) => JSON.stringify({ ...recordFor('threads', id), _id: id }) + '\n').join(''),
    );
    await tearTail(dataDir, 'threads', 'torn_0');

    const first = await runToEnd(CHILD, [dataDir, '0']);
    const [, records, openMs] = first.lines.find((line) => line.startsWith('ready '))!.split(' ');
    expect(Number(records)).to.equal(count);

    let killedDuringCompaction = 0;
    for (let round = 1; round <= 6; round += 1) {
      await tearTail(dataDir, 'threads', `torn_${round}`);
      // Half the kills aim at the moment nedb writes its compacted copy of threads.db and renames it over the old.
      const aimed = round % 2 === 1;
      const delayMs = aimed ? random.between(0, 40) : random.between(0, Number(openMs) + 200);
      const after = aimed ? /^compacting threads\.db~$/ : /^starting$/;
      const run = await runUntilKilled({ script: CHILD, args: [dataDir, '0'], env: { CRASH_WATCH_COMPACTION: '1' }, after, delayMs });
      const files = await readdir(path.join(dataDir, 'registry'));
      if (files.includes('threads.db~')) killedDuringCompaction += 1;
      const context = `round ${round}, killed ${delayMs} ms after ${after} in a ${openMs} ms start (${run.killed ? 'killed' : 'finished'}, ${random.describe()})`;
      expect((await stat(path.join(dataDir, 'registry', 'threads.db'))).size, `${context}: the file was emptied`).to.be.greaterThan(0);
    }
    const context = `after 6 killed starts (${killedDuringCompaction} during compaction, ${random.describe()})`;
    const stored = await storedKeys(dataDir);
    expectAckedExactlyOnce(
      ids.map((id) => `threads/${id}`),
      stored,
      context,
    );
    expect(
      stored.filter((key) => key.includes('torn_')),
      context,
    ).to.deep.equal([]);
  });

  it('loses nothing when killed while repairing a 600 MiB torn tail (zeros a power cut left), round after round', async () => {
    const random = crashRandom();
    const dataDir = await tempDir('registry-crash-repair-');
    const ids = Array.from({ length: 1000 }, (_, n) => `thr_kept_${n}`);
    const file = path.join(dataDir, 'registry', 'threads.db');
    await mkdir(path.dirname(file));
    const complete = ids.map((id) => JSON.stringify({ ...recordFor('threads', id), _id: id }) + '\n').join('');
    await writeFile(file, complete);
    const zeroTail = async (): Promise<void> => truncate(file, (await stat(file)).size + 600 * 1024 * 1024);

    await zeroTail();
    const first = await runToEnd(CHILD, [dataDir, '0']);
    const openMs = Number(first.lines.find((line) => line.startsWith('ready '))!.split(' ')[2]);
    for (let round = 1; round <= 4; round += 1) {
      await zeroTail();
      const delayMs = random.between(0, openMs);
      const run = await runUntilKilled({ script: CHILD, args: [dataDir, '0'], after: /^starting$/, delayMs });
      const size = (await stat(file)).size;
      const context = `round ${round}, killed ${delayMs} ms into a ${openMs} ms start (${run.killed ? 'killed' : 'finished'}, ${random.describe()})`;
      expect(size, `${context}: the file lost complete lines`).to.be.at.least(Buffer.byteLength(complete));
    }
    const stored = await storedKeys(dataDir);
    expectAckedExactlyOnce(
      ids.map((id) => `threads/${id}`),
      stored,
      `after 4 killed repairs (${random.describe()})`,
    );
  });
});
