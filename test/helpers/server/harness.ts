import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { configWith, type ConfigInput } from '../../../src/config/serverConfig';
import { startServer, type RunningServer, type StartServerOptions } from '../../../src/server/startServer';

export const TEST_TOKEN = 'test-token-0123456789abcdef';

export interface TestServer {
  server: RunningServer;
  dataDir: string;
  /** `fetch` on `/api/v1<path>` with the bearer token (unless `auth: false`) and JSON body handling. */
  api(pathname: string, init?: ApiInit): Promise<Response>;
  /** The JSON of a request that must succeed with `status` (default 200/201/202). */
  json<T = any>(pathname: string, init?: ApiInit): Promise<T>;
  intake(token?: string): Promise<WebSocket>;
  /** Stops the server; `keepData` leaves the data dir for a restart. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface ApiInit {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  auth?: boolean;
}

/** A real server on port 0 with a fresh temp data dir (or the given one), silent unless it logs an error. */
export async function startTestServer(
  options: { config?: ConfigInput; dataDir?: string } & Omit<StartServerOptions, 'config'> = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'ats-server-')));
  const logs: string[] = [];
  const server = await startServer({
    ...options,
    config: configWith({ port: 0, token: TEST_TOKEN, ...options.config, dataDir }),
    log: options.log ?? ((message) => logs.push(message)),
  });
  const base = `${server.url}/api/v1`;
  const api = (pathname: string, init: ApiInit = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.auth !== false) headers.authorization ??= `Bearer ${server.token}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
      headers['content-type'] ??= 'application/json';
    }
    return fetch(base + pathname, { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers, body });
  };
  return {
    server,
    dataDir,
    api,
    async json(pathname, init) {
      const response = await api(pathname, init);
      const text = await response.text();
      if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${pathname} → ${response.status} ${text}`);
      return JSON.parse(text);
    },
    intake(token = server.token) {
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${token}` } });
      return new Promise((resolve, reject) => {
        socket.once('open', () => resolve(socket));
        socket.once('error', reject);
      });
    },
    async close({ keepData = false } = {}) {
      await server.close();
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const pendingBySocket = new WeakMap<WebSocket, Map<unknown, (message: any) => void>>();

/** Sends one JSON-RPC frame and waits for the answer with the same id (null for unreadable frames). */
export function rpc(socket: WebSocket, frame: unknown): Promise<any> {
  let pending = pendingBySocket.get(socket);
  if (!pending) {
    const map = new Map<unknown, (message: any) => void>();
    pendingBySocket.set(socket, (pending = map));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      map.get(message.id)?.(message);
      map.delete(message.id);
    });
  }
  const id = typeof frame === 'string' ? null : ((frame as { id?: unknown }).id ?? null);
  return new Promise((resolve) => {
    pending.set(id, resolve);
    socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  });
}

/** Creates a project on the embedded host at `folder` and a thread in it; returns both ids. */
export async function projectWithThread(t: TestServer, folder: string, thread: Record<string, unknown> = {}) {
  const project = await t.json('/projects', {
    body: { name: 'demo', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
  });
  const created = await t.json('/threads', {
    body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'demo', ...thread },
  });
  return { project, thread: created };
}
