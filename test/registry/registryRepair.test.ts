import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { openRegistry, REGISTRY_DIR_NAME, type Registry } from '../../src/registry/registry';
import type { ThreadRecord } from '../../src/registry/records';
import type { FsyncMode } from '../../src/store/fsyncMode';
import { recordFor } from '../helpers/crash/childRegistry';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const NAMES = ['projects', 'hosts', 'environments', 'threads'] as const;
const PREFIX = { projects: 'proj', hosts: 'host', environments: 'env', threads: 'thr' } as const;

function thread(id: string, title = 't'): ThreadRecord {
  return recordFor('threads', id, title) as ThreadRecord;
}

describe('registry: start-up repair and durable acks', () => {
  const tempDir = suiteTempDirs();

  async function withRegistry<T>(dataDir: string, use: (registry: Registry) => Promise<T>, fsync?: FsyncMode): Promise<T> {
    const registry = await openRegistry({ dataDir, fsync });
    try {
      return await use(registry);
    } finally {
      await registry.close();
    }
  }

  it('starts after a crash tore the last line of every collection: complete records stay, the torn ones are gone', async () => {
    const dataDir = await tempDir('registry-repair-');
    await withRegistry(dataDir, async (registry) => {
      for (const name of NAMES) await registry[name].insert(recordFor(name, `${PREFIX[name]}_kept`) as never);
    });
    for (const name of NAMES) {
      const torn = JSON.stringify({ ...recordFor(name, `${PREFIX[name]}_torn`), _id: `${PREFIX[name]}_torn` });
      await appendFile(path.join(dataDir, REGISTRY_DIR_NAME, `${name}.db`), torn.slice(0, torn.length - 3));
    }
    await withRegistry(dataDir, async (registry) => {
      for (const name of NAMES) {
        expect(
          (await registry[name].find()).map((record) => record.id),
          name,
        ).to.deep.equal([`${PREFIX[name]}_kept`]);
        await registry[name].insert(recordFor(name, `${PREFIX[name]}_after`) as never);
      }
    });
    await withRegistry(dataDir, async (registry) => {
      for (const name of NAMES) expect(await registry[name].get(`${PREFIX[name]}_after`), name).to.not.equal(undefined);
    });
  });

  it('keeps a last record whose write lost only its newline', async () => {
    const dataDir = await tempDir('registry-repair-');
    await withRegistry(dataDir, async (registry) => void (await registry.threads.insert(thread('thr_a'))));
    await appendFile(path.join(dataDir, REGISTRY_DIR_NAME, 'threads.db'), JSON.stringify({ ...thread('thr_b'), _id: 'thr_b' }));
    await withRegistry(dataDir, async (registry) => {
      expect((await registry.threads.find()).map((record) => record.id)).to.deep.equal(['thr_a', 'thr_b']);
    });
  });

  it('starts from the intact file when a kill left a half-written compacted copy beside it', async () => {
    const dataDir = await tempDir('registry-repair-');
    await withRegistry(dataDir, async (registry) => void (await registry.threads.insert(thread('thr_a'))));
    const file = path.join(dataDir, REGISTRY_DIR_NAME, 'threads.db');
    await writeFile(`${file}~`, (await readFile(file, 'utf8')).slice(0, 10));
    await withRegistry(dataDir, async (registry) => {
      expect((await registry.threads.find()).map((record) => record.id)).to.deep.equal(['thr_a']);
    });
  });

  // nedb reads its file back through a line splitter that also breaks lines at U+2028, U+2029 and U+0085,
  // which JSON.stringify leaves raw: a title pasted from a web page would cut its record in two.
  const LINE_BREAKS_JSON_KEEPS = 'a\u2028b\u2029c\u0085d';

  it('keeps a title holding U+2028, U+2029 and U+0085 across a restart', async () => {
    const dataDir = await tempDir('registry-separators-');
    await withRegistry(dataDir, async (registry) => {
      await registry.threads.insert(thread('thr_a', LINE_BREAKS_JSON_KEEPS));
      await registry.threads.insert(thread('thr_b'));
    });
    await withRegistry(dataDir, async (registry) => {
      expect((await registry.threads.get('thr_a'))?.title).to.equal(LINE_BREAKS_JSON_KEEPS);
      expect((await registry.threads.find()).map((record) => record.id)).to.deep.equal(['thr_a', 'thr_b']);
    });
  });

  it('loads a file an earlier version wrote with those characters raw', async () => {
    const dataDir = await tempDir('registry-separators-');
    await withRegistry(dataDir, async (registry) => void (await registry.threads.insert(thread('thr_b'))));
    const file = path.join(dataDir, REGISTRY_DIR_NAME, 'threads.db');
    await appendFile(file, `${JSON.stringify({ ...thread('thr_a', LINE_BREAKS_JSON_KEEPS), _id: 'thr_a' })}\n`);
    await withRegistry(dataDir, async (registry) => {
      expect((await registry.threads.get('thr_a'))?.title).to.equal(LINE_BREAKS_JSON_KEEPS);
      expect((await registry.threads.get('thr_b'))?.title).to.equal('t');
    });
  });

  for (const fsync of ['always', 'batch', 'off'] as const) {
    it(`acks concurrent inserts and replacements with ATS_FSYNC=${fsync}, all there after a restart`, async () => {
      const dataDir = await tempDir('registry-fsync-');
      const ids = Array.from({ length: 60 }, (_, n) => `thr_${n}`);
      await withRegistry(
        dataDir,
        async (registry) => {
          await Promise.all(ids.map((id) => registry.threads.insert(thread(id))));
          await Promise.all(ids.filter((_, n) => n % 2 === 0).map((id) => registry.threads.put(thread(id, 'replaced'))));
        },
        fsync,
      );
      await withRegistry(dataDir, async (registry) => {
        const titles = new Map((await registry.threads.find()).map((record) => [record.id, record.title]));
        expect([...titles.keys()].sort()).to.deep.equal([...ids].sort());
        expect(ids.filter((id) => titles.get(id) === 'replaced')).to.deep.equal(ids.filter((_, n) => n % 2 === 0));
      });
    });
  }
});
