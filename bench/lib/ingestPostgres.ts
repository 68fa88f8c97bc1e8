/**
 * `npm run bench:ingest -- --store postgres`: envelopes through the whole pipeline into the PostgreSQL event
 * store (seqs assigned by the database, heads bumped, a notification per thread), against raw multi-row
 * INSERTs of the same rows into a table of the same shape, in the same run, on a fresh database.
 */
import { performance } from 'node:perf_hooks';
import { createThreadIngest } from '../../src/ingest/threadIngest';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { openPostgresDatabase } from '../../src/store/postgres/openPostgres';
import { createPostgresEventStore } from '../../src/store/postgres/postgresEventStore';
import { withScratchDatabase } from './scratchDatabase';

const ROUNDS = 5;
/** Rows per INSERT in the raw baseline (8 parameters a row, well under PostgreSQL's 65,535). */
const RAW_BATCH_ROWS = 512;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchIngestPostgres(workload: (prefix: string) => unknown[]): Promise<void> {
  await withScratchDatabase(async (url) => {
    const database = await openPostgresDatabase({ url, max: 4 });
    try {
      await database.pool.query('CREATE TABLE raw_events (LIKE thread_events INCLUDING ALL)');
      const store = createPostgresEventStore({ pool: database.pool, origin: 'bench', ownsPool: false });

      const pipeline = async (frames: unknown[]) => {
        const ingest = createThreadIngest({ store });
        const started = performance.now();
        const outcomes = await Promise.all(frames.map((frame) => ingest.ingest(frame)));
        const seconds = (performance.now() - started) / 1000;
        await ingest.close();
        if (outcomes.some((outcome) => !outcome.ok)) throw new Error('an envelope was rejected');
        return { seconds, rows: outcomes.flatMap((outcome) => (outcome.ok ? outcome.rows : [])) };
      };
      const raw = async (rows: StoredThreadEvent[]) => {
        await database.pool.query('TRUNCATE raw_events');
        const started = performance.now();
        for (let start = 0; start < rows.length; start += RAW_BATCH_ROWS) {
          const chunk = rows.slice(start, start + RAW_BATCH_ROWS);
          const values = chunk.map(
            (_, i) =>
              `($${i * 8 + 1}, $${i * 8 + 2}, $${i * 8 + 3}, $${i * 8 + 4}, $${i * 8 + 5}, $${i * 8 + 6}, $${i * 8 + 7}, $${i * 8 + 8})`,
          );
          const params = chunk.flatMap((row) => [
            row.threadId,
            row.seq,
            row.id,
            row.type,
            row.turnId,
            JSON.stringify(row.scope),
            JSON.stringify(row.data),
            row.createdAt,
          ]);
          await database.pool.query(
            `INSERT INTO raw_events (thread_id, seq, id, type, turn_id, scope, data, created_at) VALUES ${values.join(', ')}`,
            params,
          );
        }
        return { seconds: (performance.now() - started) / 1000 };
      };

      let rows = (await pipeline(workload('warm_'))).rows; // warm-up, not reported
      await raw(rows);
      const times = { pipeline: [] as number[], raw: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        const runPipeline = async () => {
          const result = await pipeline(workload(`r${round}_`));
          rows = result.rows;
          times.pipeline.push(result.seconds);
        };
        const runRaw = async () => times.raw.push((await raw(rows)).seconds);
        // Alternate which side goes first: the machine is shared and PostgreSQL's own caches warm up.
        if (round % 2 === 0) await runPipeline().then(runRaw);
        else await runRaw().then(runPipeline);
      }
      const frames = workload('count_').length;
      const pipelineRate = rows.length / median(times.pipeline);
      const rawRate = rows.length / median(times.raw);
      const spread = (values: number[]) =>
        `rounds ${(Math.min(...values) * 1000).toFixed(0)}–${(Math.max(...values) * 1000).toFixed(0)} ms`;
      console.log(
        `pipeline → PostgreSQL: ${Math.round((pipelineRate * frames) / rows.length)} envelopes/s, ${Math.round(pipelineRate)} rows/s (${rows.length} rows per round; median of ${ROUNDS}, ${spread(times.pipeline)})`,
      );
      console.log(
        `raw multi-row INSERT of the same rows (${RAW_BATCH_ROWS}/statement): ${Math.round(rawRate)} rows/s (${spread(times.raw)}) → ratio pipeline/raw ${(pipelineRate / rawRate).toFixed(2)}x (goal >= 0.7x)`,
      );
      await store.close();
    } finally {
      await database.close();
    }
  });
}
