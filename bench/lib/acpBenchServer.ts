import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { configWith } from '../../src/config/serverConfig';
import type { AgentProvider } from '../../src/daemon/providers/agentProvider';
import { startServer, type RunningServer } from '../../src/server/startServer';
import { timeThreadRows, wallClockMs, type TimedRow } from './threadRowTimings';

const TOKEN = 'bench-token-0123456789abcdef';

/** A real server (embedded daemon, nedb store in a temp folder) running `providers`, driven over HTTP and SSE. */
export interface BenchServer {
  server: RunningServer;
  json<T = any>(pathname: string, body?: unknown): Promise<T>;
  /** Creates a thread in a project on `folder`, run by `provider`. */
  thread(folder: string, provider: string, model: string): Promise<string>;
  /** Prompts `threadId` and collects its rows until the turn completes. */
  run(threadId: string, prompt: string): Promise<{ postedAt: number; rows: TimedRow[] }>;
  close(): Promise<void>;
}

export async function startBenchServer(providers: AgentProvider[]): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-bench-acp-'));
  // ATS_FSYNC as `npm start` reads it, so the bench can be run once per mode (how much of the tail is the disk).
  const fsync = process.env.ATS_FSYNC as 'always' | 'batch' | 'off' | undefined;
  const config = configWith({ port: 0, token: TOKEN, dataDir, fsync });
  const server = await startServer({ config, providers, log: () => undefined });
  const json = async (pathname: string, body?: unknown) => {
    const response = await fetch(`${server.url}/api/v1${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${pathname} → ${response.status} ${await response.text()}`);
    return response.json();
  };
  const projects = new Map<string, string>();
  return {
    server,
    json,
    async thread(folder, provider, model) {
      let projectId = projects.get(folder);
      if (!projectId) {
        projectId = (await json('/projects', { name: 'bench', source: { type: 'local_path', path: folder, hostId: server.hostId } })).id;
        projects.set(folder, projectId!);
      }
      return (await json('/threads', { projectId, provider, model, title: `bench ${provider}` })).id;
    },
    async run(threadId, prompt) {
      let afterSeq = 0;
      for (;;) {
        const events = await json(`/threads/${threadId}/events?afterSeq=${afterSeq}&limit=1000`);
        if (events.length === 0) break;
        afterSeq = events.at(-1).seq;
      }
      const stream = await timeThreadRows(`${server.url}/api/v1/threads/${threadId}/events/stream?afterSeq=${afterSeq}`, TOKEN);
      const postedAt = wallClockMs();
      await json(`/threads/${threadId}/messages`, { prompt });
      await stream.until((row) => row.type === 'turn/completed');
      stream.close();
      return { postedAt, rows: stream.rows };
    },
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
