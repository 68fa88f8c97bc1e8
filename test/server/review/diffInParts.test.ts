import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DaemonConfigSchema } from '../../../src/config/daemonConfig';
import { startRemoteDaemon } from '../../../src/daemon/remote/startRemoteDaemon';
import { fakeProvider } from '../../helpers/fakes/provider';
import { initRepo } from '../../helpers/git/gitRepo';
import { eventually } from '../../helpers/server/eventually';
import { startTestServer, TEST_TOKEN } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const FILES = 300;

describe('GET …/diff answers while the host still diffs: the same answer in parts, from the embedded host and a remote one', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();

  it('a 300-file change: sent as git writes it (chunked), the same JSON from either host as git.diff makes it whole', async () => {
    const checkout = await tempDir('ats-diff-parts-');
    const lines = (word: string, i: number) => Array.from({ length: 30 }, (_, line) => `${word} ${i} ${line}`).join('\n') + '\n';
    initRepo(
      checkout,
      Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/f${String(i).padStart(3, '0')}.txt`, lines('old', i)])),
    );
    for (let i = 0; i < FILES; i++) writeFileSync(path.join(checkout, `src/f${String(i).padStart(3, '0')}.txt`), lines('new', i));

    const t = await startTestServer();
    const daemon = await startRemoteDaemon({
      config: DaemonConfigSchema.parse({
        server: t.server.url,
        token: TEST_TOKEN,
        name: 'remote',
        dataDir: await tempDir('ats-diff-parts-daemon-'),
      }),
      providers: [fakeProvider('fake')],
      log: () => undefined,
    });
    try {
      await eventually(() => (t.server.hosts.isOnline(daemon.hostId) ? true : undefined), 'the remote host online');
      const threadOn = async (hostId: string, provider: string) => {
        const project = await t.json('/projects', { body: { name: provider, source: { type: 'local_path', path: checkout, hostId } } });
        return t.json('/threads', { body: { projectId: project.id, provider, model: 'fake/model', title: 'diff' } });
      };
      const diffOf = async (thread: { id: string }) => {
        const response = await fetch(`${t.server.url}/api/v1/threads/${thread.id}/diff?scope=uncommitted`, {
          headers: { authorization: `Bearer ${TEST_TOKEN}` },
        });
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.match(/^application\/json/);
        // Written as the parts came: no length known up front.
        expect(response.headers.get('transfer-encoding')).to.equal('chunked');
        return response.json();
      };
      const embedded = await diffOf(await threadOn(t.server.hostId, 'pi'));
      const remote = await diffOf(await threadOn(daemon.hostId, 'fake'));
      expect(embedded.files).to.have.length(FILES);
      expect(embedded.files.map((file: { path: string }) => file.path)).to.deep.equal(
        Array.from({ length: FILES }, (_, i) => `src/f${String(i).padStart(3, '0')}.txt`),
      );
      expect(embedded.files[7]).to.deep.include({ status: 'modified', additions: 30, deletions: 30 });
      expect(remote).to.deep.equal(embedded);
    } finally {
      await daemon.close();
      await t.close();
    }
  });
});
