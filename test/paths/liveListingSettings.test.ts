import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadDaemonConfig } from '../../src/config/daemonConfig';
import { configWith, loadConfig } from '../../src/config/serverConfig';
import { pathListerOptionsOf } from '../../src/daemon/localHostFiles';
import { WATCH_AFTER_PAUSE_MS } from '../../src/paths/cache/startOncePaused';
import { startServer, type RunningServer } from '../../src/server/startServer';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const TOKEN = 'live-listing-token-0123456789';

describe('live listings: settings (pathWatchIdleMs, debug)', () => {
  it('reads --path-watch-idle-ms / ATS_PATH_WATCH_IDLE_MS and --debug / ATS_DEBUG; 0 turns watching off', () => {
    expect(loadConfig([], {})).to.include({ pathWatchIdleMs: 300_000, debug: false });
    const server = loadConfig(['--path-watch-idle-ms', '0'], { ATS_DEBUG: '1' });
    expect(server).to.include({ pathWatchIdleMs: 0, debug: true });
    const log = () => undefined;
    expect(pathListerOptionsOf(server, log)).to.deep.equal({ watcher: null, debug: log, ignoredDirectories: [server.dataDir] });
    expect(pathListerOptionsOf({ pathWatchIdleMs: 1000, debug: false }, log)).to.deep.equal({ idleMs: 1000 });
    const daemon = loadDaemonConfig(['--server', 'http://h:1', '--token', TOKEN], {
      ATS_DAEMON_PATH_WATCH_IDLE_MS: '60000',
      ATS_DAEMON_DEBUG: 'true',
    });
    expect(daemon).to.include({ pathWatchIdleMs: 60_000, debug: true });
    expect(() => loadConfig(['--path-watch-idle-ms', '-1'], {})).to.throw(/invalid --path-watch-idle-ms \/ ATS_PATH_WATCH_IDLE_MS/);
  });

  describe('a server started with debug on', () => {
    const tempDir = suiteTempDirs();
    let server: RunningServer;
    const logs: string[] = [];
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

    afterEach(async () => {
      await server.close();
      logs.length = 0;
    });

    async function quickOpen(pathWatchIdleMs: number): Promise<(query: string) => Promise<unknown>> {
      const root = await tempDir('live-listing-root-');
      await writeFile(join(root, 'readme.md'), '');
      server = await startServer({
        config: configWith({
          port: 0,
          token: TOKEN,
          dataDir: await tempDir('live-listing-data-'),
          agentProviders: 'none',
          debug: true,
          pathWatchIdleMs,
        }),
        log: (message) => logs.push(message),
      });
      const created = await fetch(`${server.url}/api/v1/projects`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'p', source: { type: 'local_path', path: root, hostId: server.hostId } }),
      });
      const { id } = (await created.json()) as { id: string };
      return async (query) => (await fetch(`${server.url}/api/v1/projects/${id}/paths?query=${query}`, { headers })).json();
    }

    it('logs that a listing was answered by stamps when watching is off', async () => {
      const paths = await quickOpen(0);
      expect(await paths('readme')).to.have.nested.property('paths[0].path', 'readme.md');
      expect(logs.join('\n')).to.match(/paths: .*live-listing-root-\S+ answered by revalidating stamps/);
      expect(logs.join('\n')).not.to.include('is watched');
    });

    it('logs that the watched listing answers once the watch is up', async () => {
      const paths = await quickOpen(60_000);
      const started = Date.now();
      while (!logs.some((line) => line.endsWith(' answered from the watched listing')) && Date.now() - started < 10_000) {
        expect(await paths('readme')).to.have.nested.property('paths[0].path', 'readme.md');
        // Longer than `WATCH_AFTER_PAUSE_MS`: the watch starts once calls on the root pause.
        await new Promise((resolve) => setTimeout(resolve, WATCH_AFTER_PAUSE_MS + 50));
      }
      expect(logs.join('\n')).to.include('is watched');
      expect(logs.some((line) => line.endsWith(' answered from the watched listing'))).to.equal(true);
    });
  });
});
