import { expect } from 'chai';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startDaemonProcess, type DaemonProcess } from '../helpers/hosts/daemonProcess';
import { eventually } from '../helpers/server/eventually';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const SETTING = /outside the folders this host allows \(--allow-root \/ ATS_ALLOW_ROOTS\)/;

/**
 * base/allowed/project/{README.md, escape → base/outside}, base/allowed/way-out → base/outside,
 * base/allowed/other/, base/outside/{secret.txt, proj/}.
 */
async function makeFolders(base: string): Promise<{ allowed: string; outside: string; project: string }> {
  const allowed = path.join(base, 'allowed');
  const outside = path.join(base, 'outside');
  const project = path.join(allowed, 'project');
  await mkdir(path.join(outside, 'proj'), { recursive: true });
  await mkdir(path.join(allowed, 'other'), { recursive: true });
  await mkdir(project, { recursive: true });
  await writeFile(path.join(outside, 'secret.txt'), 'outside\n');
  await writeFile(path.join(project, 'README.md'), 'inside\n');
  await symlink(outside, path.join(project, 'escape'));
  await symlink(outside, path.join(allowed, 'way-out'));
  return { allowed, outside, project };
}

async function expectRefused(response: Response, code = 'root_not_allowed', status = 403): Promise<void> {
  const problem = (await response.json()) as { code: string; detail: string };
  expect({ status: response.status, code: problem.code }, problem.detail).to.deep.equal({ status, code });
  if (code === 'root_not_allowed') expect(problem.detail).to.match(SETTING);
}

describe('server: the embedded host exposes only ATS_ALLOW_ROOTS (issue 30)', () => {
  let t: TestServer;
  let folders: Awaited<ReturnType<typeof makeFolders>>;
  let base: string;
  const project = (folder: string) =>
    t.api('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } } });

  before(async () => {
    base = await tempDir('ats-allow-');
    folders = await makeFolders(base);
    t = await startTestServer({ config: { agentProviders: 'none', allowRoots: folders.allowed } });
  });
  after(() => t.close());
  const tempDir = suiteTempDirs();

  it('refuses a project or an environment outside the allowed folders with 403 root_not_allowed naming the setting', async () => {
    await expectRefused(await project(path.join(folders.outside, 'proj')));
    await expectRefused(await project('/'));
    await expectRefused(await t.api('/environments', { body: { hostId: t.server.hostId, path: folders.outside } }));
  });

  it('refuses a .. way out and a symlink way out of an allowed folder', async () => {
    await expectRefused(await project(`${folders.allowed}/../outside/proj`));
    await expectRefused(await project(path.join(folders.allowed, 'way-out')));
    await expectRefused(await project(path.join(folders.allowed, 'way-out', 'proj')));
  });

  it('registers a folder inside and reads, lists and browses there; a symlink out of it is refused', async () => {
    const created = await t.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folders.project, hostId: t.server.hostId } },
    });
    const read = (file: string) => t.api('/files/read', { body: { hostId: t.server.hostId, path: file } });
    expect(((await (await read(path.join(folders.project, 'README.md'))).json()) as any).content).to.equal('inside\n');
    await expectRefused(await read(path.join(folders.project, 'escape', 'secret.txt')));
    const listing = await t.json(`/projects/${created.id}/paths`);
    expect(listing.paths.map((entry: { path: string }) => entry.path)).to.include('README.md');
    const browsed = await t.json(`/hosts/${t.server.hostId}/directories?path=${encodeURIComponent(folders.project)}`);
    expect(
      browsed.entries.map((entry: { name: string }) => entry.name),
      'the link out is left out',
    ).to.deep.equal(['README.md']);
  });

  it('the folder picker sees only the way to the allowed folders, and nothing outside', async () => {
    const browse = (folder: string) => t.api(`/hosts/${t.server.hostId}/directories?path=${encodeURIComponent(folder)}`);
    const above = (await (await browse(base)).json()) as { entries: Array<{ name: string }> };
    expect(above.entries.map((entry) => entry.name)).to.deep.equal(['allowed']);
    const inside = (await (await browse(folders.allowed)).json()) as { entries: Array<{ name: string }> };
    expect(inside.entries.map((entry) => entry.name)).to.deep.equal(['other', 'project']);
    await expectRefused(await browse(folders.outside));
    await expectRefused(await browse(path.join(folders.allowed, 'way-out')));
  });

  it('a registered folder swapped for a link outside: its threads, listings and reads are refused', async () => {
    const moving = path.join(folders.allowed, 'moving');
    await mkdir(moving);
    await writeFile(path.join(moving, 'a.txt'), 'a\n');
    const created = await t.json('/projects', {
      body: { name: 'm', source: { type: 'local_path', path: moving, hostId: t.server.hostId } },
    });
    await rename(moving, `${moving}.away`);
    await symlink(folders.outside, moving);
    const thread = { projectId: created.id, provider: 'pi', model: 'm', title: 'x' };
    await expectRefused(await t.api('/threads', { body: thread }));
    await expectRefused(await t.api(`/projects/${created.id}/paths`));
    await expectRefused(await t.api('/files/read', { body: { hostId: t.server.hostId, path: path.join(moving, 'secret.txt') } }));
  });
});

describe('hosts: a daemon process started with --allow-root decides what it exposes (issue 30)', function () {
  this.timeout(60_000);
  let t: TestServer;
  let daemon: DaemonProcess;
  let folders: Awaited<ReturnType<typeof makeFolders>>;
  let second: string;
  const project = (folder: string) =>
    t.api('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId: daemon.hostId } } });

  before(async () => {
    const base = await tempDir('ats-allow-daemon-');
    folders = await makeFolders(base);
    second = path.join(base, 'second');
    await mkdir(second);
    t = await startTestServer({ config: { agentProviders: 'none' } });
    daemon = await startDaemonProcess(
      [
        ...['--server', t.server.url, '--token', TEST_TOKEN, '--data-dir', path.join(base, 'daemon'), '--agent-providers', 'none'],
        ...['--allow-root', folders.allowed, '--allow-root', second],
      ],
      { via: 'node' },
    );
    expect(daemon.hostId, daemon.stderr()).to.match(/^host_/);
    const online = async () => {
      const response = await t.api(`/hosts/${daemon.hostId}`);
      return response.ok && ((await response.json()) as { online: boolean }).online ? true : undefined;
    };
    await eventually(online, 'the daemon online', 20_000);
  });
  after(async () => {
    await daemon?.kill('SIGTERM');
    await t?.close();
  });
  const tempDir = suiteTempDirs();

  it('refuses a folder outside, a .. way out and a symlink way out; takes folders inside either --allow-root', async () => {
    await expectRefused(await project(path.join(folders.outside, 'proj')));
    await expectRefused(await project(`${folders.allowed}/../outside`));
    await expectRefused(await project(path.join(folders.allowed, 'way-out')));
    expect((await project(folders.project)).status).to.equal(201);
    expect((await project(second)).status).to.equal(201);
  });

  it('reads inside an allowed folder and refuses a symlink out of it', async () => {
    const read = (file: string) => t.api('/files/read', { body: { hostId: daemon.hostId, path: file } });
    expect(((await (await read(path.join(folders.project, 'README.md'))).json()) as any).content).to.equal('inside\n');
    await expectRefused(await read(path.join(folders.project, 'escape', 'secret.txt')));
  });
});
