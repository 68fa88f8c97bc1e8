/**
 * A crash-test child (see harness.ts) over the nedb registry. `node … test/helpers/crash/childRegistry.ts <dataDir>
 * <writes>` opens the registry (torn-tail repair, load, compaction), prints `starting` before and `ready
 * <records> <ms the open took>` after, then writes `<writes>` records round-robin into the four collections, a few at a time,
 * and prints `ack <collection>/<id>` for each write once it resolved, and `ack put:<collection>/<id>` for an
 * acked replacement (its title becomes `replaced`). `done` at the end. The fsync mode comes from ATS_FSYNC;
 * with CRASH_WATCH_COMPACTION set (and the registry folder made), `compacting <file>` marks nedb's rewrite.
 */
import { FsyncModeSchema } from '../../../src/store/fsyncMode';
import { watch } from 'node:fs';
import path from 'node:path';
import { openRegistry, REGISTRY_DIR_NAME, type Registry } from '../../../src/registry/registry';

type Name = 'projects' | 'hosts' | 'environments' | 'threads';
const NAMES: Name[] = ['projects', 'hosts', 'environments', 'threads'];
/** Writes in flight at once: enough for group commit to share fsyncs. */
const CONCURRENCY = 8;

export function recordFor(name: Name, id: string, title = 'first'): Record<string, unknown> & { id: string } {
  const createdAt = new Date().toISOString();
  switch (name) {
    case 'projects':
      return { id, name: title, source: { type: 'local_path', path: '/tmp', hostId: 'host_1' }, environmentId: 'env_1', createdAt };
    case 'hosts':
      return { id, name: title, platform: 'linux', protocolVersion: 1, providers: [], lastSeenAt: createdAt };
    case 'environments':
      return { id, hostId: 'host_1', path: `/tmp/${title}`, createdAt };
    case 'threads':
      return { id, projectId: 'proj_1', environmentId: 'env_1', hostId: 'host_1', provider: 'pi', model: 'm', title, createdAt };
  }
}

const PREFIX: Record<Name, string> = { projects: 'proj', hosts: 'host', environments: 'env', threads: 'thr' };

async function main(): Promise<void> {
  const [dataDir, writesText = '0'] = process.argv.slice(2);
  const fsync = FsyncModeSchema.parse(process.env.ATS_FSYNC ?? 'batch');
  if (process.env.CRASH_WATCH_COMPACTION) watchCompaction(path.join(dataDir!, REGISTRY_DIR_NAME));
  console.log('starting');
  const startedAt = performance.now();
  const registry = await openRegistry({ dataDir: dataDir!, fsync });
  const openMs = Math.ceil(performance.now() - startedAt);
  const counts = await Promise.all(NAMES.map(async (name) => (await registry[name].find()).length));
  console.log(`ready ${counts.reduce((a, b) => a + b, 0)} ${openMs}`);
  const writes = Number(writesText);
  const run = `${process.pid.toString(36)}${Date.now().toString(36)}`;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < writes) {
      const n = next++;
      const name = NAMES[n % NAMES.length]!;
      const id = `${PREFIX[name]}_${run}_${n}`;
      const collection = registry[name] as unknown as Registry['threads'];
      await collection.insert(recordFor(name, id) as never);
      process.stdout.write(`ack ${name}/${id}\n`);
      if (n % 3 === 0) {
        await collection.put(recordFor(name, id, 'replaced') as never);
        process.stdout.write(`ack put:${name}/${id}\n`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await registry.close();
  console.log('done');
}

/** Prints `compacting <file>` when nedb starts writing a compacted copy (`<file>~`), so a kill can aim at it. */
function watchCompaction(dir: string): void {
  const seen = new Set<string>();
  const watcher = watch(dir, (_event, name) => {
    if (!name?.endsWith('~') || seen.has(name)) return;
    seen.add(name);
    process.stdout.write(`compacting ${name}\n`);
  });
  watcher.unref();
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
