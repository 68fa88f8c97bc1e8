import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../src/protocol/protocolVersion';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: hosts, projects, environments and their paths', () => {
  let t: TestServer;
  let root: string;

  before(async () => {
    t = await startTestServer();
    root = await tempDir('ats-projects-');
    await mkdir(path.join(root, '.github', 'workflows'), { recursive: true });
    await writeFile(path.join(root, '.github', 'workflows', 'ci.yml'), 'on: push\n');
    await mkdir(path.join(root, 'src'));
    await writeFile(path.join(root, 'src', 'main.ts'), 'export {};\n');
    await writeFile(path.join(root, 'README.md'), '# demo\n');
  });
  after(() => t.close());

  const tempDir = suiteTempDirs();

  it('lists the embedded host at once: host_ id, online, protocol version, last seen', async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const asked = Date.now();
    const hosts = await t.json('/hosts');
    expect(hosts).to.have.length(1);
    expect(hosts[0]).to.deep.include({ id: t.server.hostId, online: true, protocolVersion: HOST_DAEMON_PROTOCOL_VERSION });
    expect(hosts[0].id).to.match(/^host_/);
    // Online: seen as of the request (its link is alive), not when it connected.
    expect(Date.parse(hosts[0].lastSeenAt)).to.be.at.least(asked);
    const { lastSeenAt: _, ...one } = await t.json(`/hosts/${t.server.hostId}`);
    expect(hosts[0]).to.deep.include(one);
    expect((await t.api('/hosts/host_nope')).status).to.equal(404);
  });

  it('creates a project (proj_ id) with an environment for its folder', async () => {
    const project = await t.json('/projects', {
      body: { name: 'demo', source: { type: 'local_path', path: root + '/', hostId: t.server.hostId } },
    });
    expect(project.id).to.match(/^proj_/);
    expect(project.source).to.deep.equal({ type: 'local_path', path: root, hostId: t.server.hostId });
    const environment = await t.json(`/environments/${project.environmentId}`);
    expect(environment).to.deep.include({ id: project.environmentId, hostId: t.server.hostId, path: root });
    expect(await t.json(`/projects/${project.id}`)).to.deep.equal(project);
    expect((await t.json('/projects')).map((p: { id: string }) => p.id)).to.include(project.id);
  });

  it('refuses a project folder that is relative (400), missing (400) or a file (409), checked on the host', async () => {
    const cases: [string, number, string][] = [
      ['relative/path', 400, 'invalid_path'],
      [path.join(root, 'missing'), 400, 'folder_not_found'],
      [path.join(root, 'README.md'), 409, 'not_a_directory'],
    ];
    for (const [folder, status, code] of cases) {
      const response = await t.api('/projects', {
        body: { name: 'x', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
      });
      expect(response.status, folder).to.equal(status);
      expect(((await response.json()) as any).code, folder).to.equal(code);
    }
    const unknownHost = await t.api('/projects', { body: { name: 'x', source: { type: 'local_path', path: root, hostId: 'host_nope' } } });
    expect(unknownHost.status).to.equal(404);
    expect(((await unknownHost.json()) as any).code).to.equal('host_not_found');
    const badType = await t.api('/projects', { body: { name: 'x', source: { type: 'git', path: root, hostId: t.server.hostId } } });
    expect(badType.status).to.equal(400);
    expect(((await badType.json()) as any).issues[0].path).to.deep.equal(['source', 'type']);
  });

  it('creates an environment (env_ id) on a host folder', async () => {
    const environment = await t.json('/environments', { body: { hostId: t.server.hostId, path: path.join(root, 'src') } });
    expect(environment.id).to.match(/^env_/);
    const listing = await t.json(`/environments/${environment.id}/paths`);
    expect(listing).to.deep.equal({
      paths: [{ kind: 'file', path: 'main.ts', name: 'main.ts', score: 0, positions: [] }],
      truncated: false,
    });
    expect((await t.api('/environments/env_nope')).status).to.equal(404);
  });

  it('project paths run host.list_paths on the project root (rules 2 and 6: dot folders are found)', async () => {
    const project = await t.json('/projects', {
      body: { name: 'demo', source: { type: 'local_path', path: root, hostId: t.server.hostId } },
    });
    const found = await t.json(`/projects/${project.id}/paths?query=workflows&includeDirectories=true`);
    expect(found.paths.map((entry: { path: string }) => entry.path)).to.include('.github/workflows');
    const limited = await t.json(`/projects/${project.id}/paths?limit=1`);
    expect(limited.paths).to.have.length(1);
    expect(limited.truncated).to.equal(true);
    const environmentListing = await t.json(`/environments/${project.environmentId}/paths?limit=1`);
    expect(environmentListing).to.deep.equal(limited);
  });

  it('rejects a paths query failing its schema with 400 invalid_query and the issues', async () => {
    const project = (await t.json('/projects'))[0];
    for (const query of ['limit=0', 'limit=x', 'includeFiles=yes', 'bogus=1']) {
      const response = await t.api(`/projects/${project.id}/paths?${query}`);
      expect(response.status, query).to.equal(400);
      const problem = (await response.json()) as any;
      expect(problem.code).to.equal('invalid_query');
      expect(problem.issues).to.be.an('array').that.is.not.empty;
    }
    const both = await t.api(`/projects/${project.id}/paths?includeFiles=false&includeDirectories=false`);
    expect(both.status).to.equal(400);
    expect(((await both.json()) as any).code).to.equal('invalid_params');
  });
});
