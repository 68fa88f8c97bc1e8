import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ListPathsResult } from '../../src/protocol/hostFiles';
import type { PathsProject } from './pathsHttp';

const TOKEN = 'bench-paths-token-0123456789';
const REPO = resolve(__dirname, '../..');

/** A collector pause in the service, on this process's `performance.now()` clock. */
export interface ServiceGcPause {
  at: number;
  ms: number;
  kind: string;
}

/** The service started as `npm start` starts it (its package's `start` script, built JS), in its own process. */
export interface PathsService extends PathsProject {
  readonly pid: number;
  /** The service's debug log (`ATS_DEBUG=1`), one line each, and when this process read each line. */
  readonly log: string[];
  readonly logAt: number[];
  readonly gcPauses: ServiceGcPause[];
  /** The `start` script that ran, to say which code and flags were measured. */
  readonly command: string;
  project(root: string): Promise<PathsProject>;
  close(): Promise<void>;
}

/**
 * Starts the service of `serviceDir` (default this checkout; `BENCH_SERVICE_DIR` lets one bench measure another
 * worktree's code, built) with its package.json `start` script, as `npm start -- --port 0 --data-dir …` would,
 * without npm's own process and its `prestart` build check (the caller builds first). The only addition is a
 * passive collector observer (`gcProbe.cjs`, through `NODE_OPTIONS`), so the bench's own HTTP client and its
 * garbage are not in the measured heap, as they were when the server ran inside the bench.
 */
export async function startPathsService(root: string, pathWatchIdleMs: number, serviceDir = REPO): Promise<PathsService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-paths-service-'));
  const command = (JSON.parse(readFileSync(join(serviceDir, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const child = spawn('sh', ['-c', `exec ${command} "$@"`, 'start', '--port', '0', '--data-dir', dataDir], {
    cwd: serviceDir,
    env: {
      ...process.env,
      // `BENCH_SERVICE_NODE_OPTIONS`: flags for the service alone (a start script to be, e.g. a heap size), not this process.
      NODE_OPTIONS: [process.env.NODE_OPTIONS, process.env.BENCH_SERVICE_NODE_OPTIONS, `--require ${join(__dirname, 'gcProbe.cjs')}`]
        .filter(Boolean)
        .join(' '),
      ATS_TOKEN: TOKEN,
      ATS_DEBUG: '1',
      ATS_AGENT_PROVIDERS: 'none',
      ATS_PATH_WATCH_IDLE_MS: String(pathWatchIdleMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const logAt: number[] = [];
  const gcPauses: ServiceGcPause[] = [];
  let errText = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => {
    const now = performance.now();
    errText += chunk;
    const lines = errText.split('\n');
    errText = lines.pop()!;
    for (const line of lines) {
      const gc = /^bench-gc (\w+) ([\d.]+) ([\d.]+)$/.exec(line);
      if (gc) gcPauses.push({ kind: gc[1]!, at: Number(gc[2]) - performance.timeOrigin, ms: Number(gc[3]) });
      else {
        log.push(line);
        logAt.push(now);
      }
    }
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const started = await new Promise<{ url: string; hostId: string }>((done, fail) => {
    let text = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      text += chunk;
      const url = /^listening on (\S+)$/m.exec(text);
      const host = /embedded host (\S+);/.exec(text);
      if (url && host) done({ url: url[1]!, hostId: host[1]! });
    });
    void exited.then(() => fail(new Error(`the service exited before listening: ${log.join('\n')}`)));
  });
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const project = async (path: string): Promise<PathsProject> => {
    const created = await fetch(`${started.url}/api/v1/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'bench', source: { type: 'local_path', path, hostId: started.hostId } }),
    });
    if (created.status !== 201) throw new Error(`project not created: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    return {
      async paths(query) {
        const url = `${started.url}/api/v1/projects/${id}/paths?${new URLSearchParams(query)}`;
        const response = await fetch(url, { headers }).catch(() => fetch(url, { headers }));
        if (response.status !== 200) throw new Error(`paths: ${response.status} ${await response.text()}`);
        return (await response.json()) as ListPathsResult;
      },
    };
  };
  const first = await project(root);
  return {
    pid: child.pid!,
    log,
    logAt,
    gcPauses,
    command,
    project,
    paths: first.paths,
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
