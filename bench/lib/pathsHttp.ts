import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configWith } from '../../src/config/serverConfig';
import { startServer, type RunningServer } from '../../src/server/startServer';
import type { ListPathsResult } from '../../src/protocol/hostFiles';

const TOKEN = 'bench-paths-token-0123456789';

/** A server with its embedded daemon and one project on `root`: quick-open as a browser asks for it. */
export interface PathsServer {
  /** `GET /api/v1/projects/:id/paths?…` answered and parsed. */
  paths(query: Record<string, string>): Promise<ListPathsResult>;
  /** The debug log of the embedded daemon's path lister. */
  readonly log: string[];
  /** When each `log` line was written (`performance.now()`), to tell what a slow call overlapped. */
  readonly logAt: number[];
  /** Another project on the same server, for a root of its own (several roots in one service). */
  project(root: string): Promise<PathsProject>;
  close(): Promise<void>;
}

/** One project of a `PathsServer`: its quick-open. */
export interface PathsProject {
  paths(query: Record<string, string>): Promise<ListPathsResult>;
}

export async function startPathsServer(root: string, pathWatchIdleMs: number): Promise<PathsServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-paths-server-'));
  const log: string[] = [];
  const logAt: number[] = [];
  let server: RunningServer;
  try {
    server = await startServer({
      config: configWith({ port: 0, token: TOKEN, dataDir, agentProviders: 'none', debug: true, pathWatchIdleMs }),
      log: (message) => {
        log.push(message);
        logAt.push(performance.now());
      },
    });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  const project = async (path: string): Promise<PathsProject> => {
    const created = await fetch(`${server.url}/api/v1/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'bench', source: { type: 'local_path', path, hostId: server.hostId } }),
    });
    if (created.status !== 201) throw new Error(`project not created: ${created.status} ${await created.text()}`);
    const { id } = (await created.json()) as { id: string };
    return {
      async paths(query) {
        const url = `${server.url}/api/v1/projects/${id}/paths?${new URLSearchParams(query)}`;
        // A kept-alive socket the server closed just as it was reused (its event loop held up on a loaded machine)
        // resets once; the browser would ask again too.
        const response = await fetch(url, { headers }).catch(() => fetch(url, { headers }));
        if (response.status !== 200) throw new Error(`paths: ${response.status} ${await response.text()}`);
        return (await response.json()) as ListPathsResult;
      },
    };
  };
  const first = await project(root);
  return {
    log,
    logAt,
    project,
    paths: first.paths,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
