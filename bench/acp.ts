/**
 * npm run bench:acp — what an ACP agent's updates cost on their way to a client (issue 27), measured through a
 * real server (embedded daemon, nedb store, SSE):
 * 1. latency: an in-process-spawned ACP agent (bench/lib/streamingAcpAgent.mjs) streams BENCH_ACP_CHUNKS chunks,
 *    one every BENCH_ACP_PACE_MS (a model streams ~50–100 a second; 1 ms is ten times that), each stamped with
 *    its send time; each chunk's latency is update sent → its row read from the thread's SSE stream.
 * 2. throughput: the same count sent as fast as the pipe takes it, against pi (isolated, the default) streaming
 *    the same count of chunks from the fake model server: chunks per second from the prompt to the last row.
 * 3. with BENCH_ACP_REAL=1 and the agents installed (npm run agents:install): a prompt on a Claude Code thread
 *    whose agent process had stopped → its first stored row, beside the agent's own start time, and the RSS of
 *    each running agent's process tree (claude, codex, gemini) next to pi's, and Gemini CLI's own start.
 */
import path from 'node:path';
import { createIsolatedPiProvider } from '../src/daemon/providerFactories';
import { createAcpProvider } from '../src/daemon/providers/acp';
import { scriptByPrompt, startFakeModelServer } from '../test/helpers/fakes/modelServer';
import { createPiSandbox, FAKE_MODEL } from '../test/providers/pi/piSandbox';
import { percentile } from './lib/pathsStats';
import { startBenchServer } from './lib/acpBenchServer';
import { measureRealAgents } from './lib/realAcpAgents';
import type { TimedRow } from './lib/threadRowTimings';

const CHUNKS = Number(process.env.BENCH_ACP_CHUNKS ?? 10_000);
const PACE_MS = Number(process.env.BENCH_ACP_PACE_MS ?? 1);
const DELTA = 'item/agentMessage/delta';
const quiet = () => undefined;

const deltasOf = (rows: TimedRow[]) => rows.filter(({ row }) => row.type === DELTA);
const chunksIn = (timed: TimedRow) => String(timed.row.data['delta']).split('|').filter(Boolean);

async function main(): Promise<void> {
  const model = await startFakeModelServer(
    scriptByPrompt({ Stream: [{ kind: 'text', chunks: Array.from({ length: CHUNKS }, () => 'x|') }] }),
  );
  const sandbox = createPiSandbox({ baseUrl: model.baseUrl });
  const agentScript = path.join(__dirname, 'lib', 'streamingAcpAgent.mjs');
  const acp = createAcpProvider({ name: 'bench-acp', spec: { command: process.execPath, args: [agentScript], env: {} }, log: quiet });
  const bench = await startBenchServer([acp, createIsolatedPiProvider({ agentDir: sandbox.agentDir }, quiet)]);
  try {
    const acpThread = await bench.thread(sandbox.projectDir, 'bench-acp', 'default');
    const piThread = await bench.thread(sandbox.projectDir, 'pi', FAKE_MODEL);
    await bench.run(acpThread, 'stream 200 every 0'); // JIT and page cache, not measured
    await bench.run(piThread, 'Stream');

    const paced = await bench.run(acpThread, `stream ${CHUNKS} every ${PACE_MS}`);
    const latencies = deltasOf(paced.rows).flatMap((timed) => chunksIn(timed).map((sentAt) => timed.at - Number(sentAt)));
    const fsync = process.env.ATS_FSYNC ?? 'batch (default)';
    console.log(
      `ACP update → stored row → SSE, ${latencies.length} chunks, one every ${PACE_MS} ms, ATS_FSYNC ${fsync} (goal p50 ≤ 5 ms, p99 ≤ 20 ms):`,
    );
    console.log(
      `  p50 ${percentile(latencies, 50).toFixed(2)} ms   p99 ${percentile(latencies, 99).toFixed(2)} ms   max ${Math.max(...latencies).toFixed(1)} ms`,
    );

    const rate = (run: { postedAt: number; rows: TimedRow[] }) => {
      const deltas = deltasOf(run.rows);
      const chunks = deltas.reduce((sum, timed) => sum + chunksIn(timed).length, 0);
      return { chunks, rows: deltas.length, perSecond: chunks / ((deltas.at(-1)!.at - run.postedAt) / 1000) };
    };
    const acpRate = rate(await bench.run(acpThread, `stream ${CHUNKS} every 0`));
    const piRate = rate(await bench.run(piThread, 'Stream'));
    console.log(`Throughput, ${CHUNKS} chunks as fast as they come, prompt → last delta row on SSE (goal ACP ≥ 0.5× pi):`);
    console.log(`  pi  (isolated, fake model)  ${piRate.perSecond.toFixed(0).padStart(7)} chunks/s  (${piRate.rows} delta rows)`);
    console.log(`  ACP (streaming agent)       ${acpRate.perSecond.toFixed(0).padStart(7)} chunks/s  (${acpRate.rows} delta rows)`);
    console.log(`  ratio ACP / pi              ${(acpRate.perSecond / piRate.perSecond).toFixed(2)}x`);
  } finally {
    await bench.close();
    await model.close();
    sandbox.remove();
  }
  if (process.env.BENCH_ACP_REAL === '1') await measureRealAgents();
  else console.log('(BENCH_ACP_REAL=1 adds Claude Code start-on-prompt and per-agent RSS; needs npm run agents:install)');
}

if (require.main === module)
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
