import { expect } from 'chai';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { LEGACY_EVENTS_FILE_NAME, openNedbEventStore } from '../../src/store/nedb/nedbEventStore';
import { EVENTS_DIR_NAME } from '../../src/store/nedb/segments/segmentLayout';
import {
  crashRandom,
  expectAckedExactlyOnce,
  runToEnd,
  runUntilKilled,
  spawnCrashChild,
  type CrashChild,
  type CrashRun,
} from '../helpers/crash/harness';
import { makeTempDir } from '../helpers/temp/dir';

const CHILD = 'test/helpers/crash/childEventStore.ts';
const FSYNC_MODES = ['always', 'batch', 'off'] as const;

/** Every row of every thread as `<threadId>/<seq>/<token>`, after checking each thread's seqs are 1..n. */
async function storedKeys(dataDir: string, threadIds: readonly string[], context: string): Promise<string[]> {
  const store = await openNedbEventStore({ dataDir });
  try {
    const keys: string[] = [];
    for (const threadId of threadIds) {
      const rows = await store.list(threadId);
      expect(
        rows.map((row) => row.seq),
        `${context}: seqs of ${threadId}`,
      ).to.deep.equal(rows.map((_, i) => i + 1));
      for (const row of rows) keys.push(`${threadId}/${row.seq}/${String(row.data['delta']).replace(/\.+$/, '')}`);
    }
    return keys;
  } finally {
    await store.close();
  }
}

const THREAD_IDS = Array.from({ length: 12 }, (_, i) => `thr_${i}`);

describe('nedb event store under SIGKILL (real child processes)', function () {
  this.timeout(240_000);
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (temp = await makeTempDir()));
  afterEach(() => temp.remove());

  it('loses no acked row and stores none twice when killed mid-ingest or during start-up, in every fsync mode', async () => {
    const random = crashRandom();
    const acked: string[] = [];
    let killedMidIngest = 0;
    for (let round = 0; round < 8; round++) {
      const duringStart = round % 4 === 3;
      const run = await runUntilKilled({
        script: CHILD,
        args: ['ingest', temp.dir, `r${round}`],
        env: { ATS_FSYNC: FSYNC_MODES[round % 3] },
        // A start-up kill aims at the store's open (right after the child says `opening`), others at ingest.
        after: duringStart ? /^opening$/ : /^opened/,
        delayMs: duringStart ? random.between(0, 30) : random.between(50, 700),
      });
      expect(run.killed, `round ${round} (${random.describe()}): ${run.stderr}`).to.equal(true);
      if (run.acked.length > 0) killedMidIngest++;
      acked.push(...run.acked);
      // Each round checks what every earlier round acked, so a restart that damaged old rows is caught too.
      expectAckedExactlyOnce(
        acked,
        await storedKeys(temp.dir, THREAD_IDS, `round ${round} ${random.describe()}`),
        `round ${round} ${random.describe()}`,
      );
    }
    expect(killedMidIngest, 'rounds killed after some acks').to.be.at.least(4);
  });

  it('migrates a one-file data dir completely however often the migration is killed, removing the old file only at the end', async () => {
    const random = crashRandom();
    const expected = await writeLegacyDataDir(temp.dir, 24, 300);
    const env = { CRASH_MIGRATION_BUFFER_BYTES: String(256 * 1024) };
    let runs = 0;
    let finished: CrashRun | undefined;
    while (!finished && runs < 12) {
      runs++;
      const run = await runUntilKilled({
        script: CHILD,
        args: ['open', temp.dir],
        env,
        after: /^opening$/,
        delayMs: random.between(0, 400),
      });
      const legacy = await exists(path.join(temp.dir, LEGACY_EVENTS_FILE_NAME));
      const migrated = await exists(path.join(temp.dir, EVENTS_DIR_NAME));
      // Never neither: until the new layout is complete the old file is whole, and it goes only after.
      expect(legacy || migrated, `run ${runs} ${random.describe()}`).to.equal(true);
      if (legacy && !migrated) expect((await fs.stat(path.join(temp.dir, LEGACY_EVENTS_FILE_NAME))).size).to.equal(expected.bytes);
      if (!run.killed) finished = run;
    }
    finished ??= await runToEnd(CHILD, ['open', temp.dir], env);
    expect(await exists(path.join(temp.dir, LEGACY_EVENTS_FILE_NAME))).to.equal(false);
    const stored = await storedKeys(temp.dir, expected.threadIds, random.describe());
    expect(stored.sort()).to.deep.equal([...expected.keys].sort());
  });

  it('resumes a migration killed after it recorded progress, instead of starting over', async () => {
    const expected = await writeLegacyDataDir(temp.dir, 24, 300);
    const env = { CRASH_MIGRATION_BUFFER_BYTES: String(64 * 1024) };
    const child = spawnCrashChild(CHILD, ['open', temp.dir], env);
    await child.line(/^opening$/);
    await untilExists(path.join(temp.dir, 'events.migrating', 'progress.json'), child);
    const killed = await child.kill();
    if (killed.signal !== 'SIGKILL') return; // it finished first: nothing was left to resume (a very fast machine)
    const resumed = await runToEnd(CHILD, ['open', temp.dir], env);
    const report = JSON.parse(resumed.lines.find((line) => line.startsWith('opened '))!.slice('opened '.length)) as {
      resumedAtByte: number;
      rows: number;
    };
    expect(report.resumedAtByte).to.be.greaterThan(0);
    expect(report.rows).to.equal(expected.keys.length);
    const stored = await storedKeys(temp.dir, expected.threadIds, 'resumed');
    expect(stored.sort()).to.deep.equal([...expected.keys].sort());
  });
});

/**
 * A data dir as the one-file store left it: every row one line, in nedb's `_id` text order after a compaction
 * (`["t",1]`, `["t",10]`, `["t",100]`, `["t",2]`…), with the index line nedb writes for `ensureIndex`.
 */
async function writeLegacyDataDir(dataDir: string, threads: number, rowsPerThread: number) {
  const threadIds = Array.from({ length: threads }, (_, i) => `thr_${i}`);
  const keys: string[] = [];
  const lines: Array<[string, string]> = [];
  for (const threadId of threadIds) {
    for (let seq = 1; seq <= rowsPerThread; seq++) {
      const token = `old-${threadId}-${seq}`;
      keys.push(`${threadId}/${seq}/${token}`);
      const row = {
        id: `id-${threadId}-${seq}`,
        type: 'item/agentMessage/delta',
        turnId: 'turn',
        data: { providerThreadId: threadId, itemId: 'item', delta: token.padEnd(1000, '.') },
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      const _id = JSON.stringify([threadId, seq]);
      lines.push([_id, JSON.stringify({ _id, threadId, seq, row: JSON.stringify(row) })]);
    }
  }
  lines.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const text = `${lines.map(([, line]) => line).join('\n')}\n{"$$indexCreated":{"fieldName":"threadId","unique":false,"sparse":false}}\n`;
  await fs.writeFile(path.join(dataDir, LEGACY_EVENTS_FILE_NAME), text);
  return { threadIds, keys, bytes: Buffer.byteLength(text) };
}

function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** Polls for a file the child is about to write; ends early if the child ends. */
async function untilExists(file: string, child: CrashChild): Promise<void> {
  let ended = false;
  void child.ended.then(() => (ended = true));
  while (!ended && !(await exists(file))) await new Promise((resolve) => setTimeout(resolve, 2));
}
