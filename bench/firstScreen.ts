/**
 * npm run bench:first-screen — the lists after sign-in (issue 29: "lists appear within 300 ms of sign-in on a
 * quiet machine"), in Debian's Chromium against the service as `npm start` starts it (a child process, port 0,
 * a temp data dir) holding one host, 3 projects and 12 threads.
 *
 * A run opens the printed sign-in link (`…/#token=…`) in a fresh tab and times, from that navigation's start,
 * the host and project lists painted (both in the DOM, then a frame). Two kinds of run, RUNS each:
 *  - cold: a new Chromium profile, as the first time someone opens the link (nothing cached);
 *  - warm: the same profile again with its cookie cleared (the page's files cached, sign-in again).
 * Baseline in the same run: the same page opened with no token and no cookie, to its sign-in form painted
 * (the page's own load: HTML, script, styles, one `GET /session` answered 401). Also the server's answer to
 * the three list requests from Node, where a run's time goes (the page's Resource Timing entries), and, from
 * TRACES more cold runs under Chromium's tracer (slower, so timed apart), the main thread's work by kind.
 *
 * BENCH_FIRST_SCREEN_BASE=<another checkout> (a worktree of the starting commit, built) runs that code's
 * service beside this one's and alternates them run by run, so both meet the same machine load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startService, type StartedService } from '../test/web/startedService';
import { openTimed, printCode, type CodeRuns } from './lib/firstScreenRuns';

const RUNS = Number(process.env.BENCH_FIRST_SCREEN_RUNS ?? 7);
const TRACES = Number(process.env.BENCH_FIRST_SCREEN_TRACES ?? 3);
const BASE = process.env.BENCH_FIRST_SCREEN_BASE;

const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

async function populated(agentDir: string, repo?: string): Promise<StartedService> {
  const service = await startService(
    {
      ATS_AGENT_PROVIDERS: 'pi',
      ATS_AGENT_ISOLATION: 'none',
      PI_CODING_AGENT_DIR: agentDir,
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_OAUTH_TOKEN: '',
    },
    repo,
  );
  for (const name of ['api', 'web', 'docs']) {
    const project = await service.api('/projects', { name, source: { type: 'local_path', path: agentDir, hostId: service.hostId } });
    for (let i = 0; i < 4; i++)
      await service.api('/threads', { projectId: project.id, provider: 'pi', model: 'anthropic/claude-sonnet-4-5', title: `${name} ${i}` });
  }
  return service;
}

async function main(): Promise<void> {
  const agentDir = mkdtempSync(path.join(os.tmpdir(), 'ats-bench-first-'));
  const codes: CodeRuns[] = [];
  try {
    codes.push({ label: 'this code', service: await populated(agentDir), form: [], cold: [], warm: [], server: [], traces: [] });
    if (BASE)
      codes.push({
        label: `base (${BASE})`,
        service: await populated(agentDir, BASE),
        form: [],
        cold: [],
        warm: [],
        server: [],
        traces: [],
      });
    const loads: string[] = [load()];
    for (let run = 0; run < RUNS; run++) {
      // Alternated, so neither code always runs first after a pause or a burst of the machine's other work.
      for (const code of run % 2 ? [...codes].reverse() : codes) {
        const started = performance.now();
        await Promise.all(['/hosts', '/projects', '/threads'].map((route) => code.service.api(route)));
        code.server.push(performance.now() - started);
        code.form.push((await openTimed(code.service.url + '/', 'form')).timeline);
        const { timeline: cold, browser } = await openTimed(code.service.signInUrl, 'lists', { keep: true });
        code.cold.push(cold);
        await browser!.context.clearCookies();
        code.warm.push((await openTimed(code.service.signInUrl, 'lists', { browser })).timeline);
        await browser!.close();
      }
    }
    for (let run = 0; run < TRACES; run++)
      for (const code of run % 2 ? [...codes].reverse() : codes)
        code.traces.push((await openTimed(code.service.signInUrl, 'lists', { trace: true })).breakdown!);
    loads.push(load());

    console.log(`first screen after sign-in, ${RUNS} runs of each (npm start, 1 host, 3 projects, 12 threads)`);
    console.log(`  load average at start ${loads[0]}, at end ${loads[1]} (1, 5, 15 min) on ${os.cpus().length} cores`);
    for (const code of codes) printCode(code);
  } finally {
    for (const code of codes) await code.service.stop();
    rmSync(agentDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
