import { expect } from 'chai';
import { access, mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { agentEnd, agentStart } from '../helpers/server/frames';
import { rpc } from '../helpers/server/harness';
import { npmStart, type StartedProcess } from '../helpers/server/process';
import { eventually } from '../helpers/server/eventually';

describe('npm start (as a newcomer runs it)', function () {
  this.timeout(60_000);
  let dataDir: string;
  let folder: string;
  let running: StartedProcess | undefined;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-start-'));
    folder = await mkdtemp(path.join(os.tmpdir(), 'ats-start-project-'));
  });
  after(async () => {
    await running?.stop();
    await rm(dataDir, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
  });

  it('prints "listening on" first and where the token is; projects, threads and events survive a restart', async () => {
    running = await npmStart(['--port', '0', '--data-dir', dataDir]);
    expect(running.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    const tokenFile = path.join(dataDir, 'token');
    await eventually(() => (running!.lines.length >= 2 ? true : undefined), 'the token line');
    expect(running.lines[1]).to.contain(tokenFile);
    expect((await stat(tokenFile)).mode & 0o077).to.equal(0); // only the owner may read the token
    const token = (await readFile(tokenFile, 'utf8')).trim();
    const api = async (url: string, pathname: string, body?: unknown) => {
      const response = await fetch(`${url}/api/v1${pathname}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(response.ok, `${pathname} → ${response.status}`).to.equal(true);
      return response.json() as Promise<any>;
    };

    const [host] = await api(running.url, '/hosts');
    expect(host.online).to.equal(true);
    const project = await api(running.url, '/projects', { name: 'demo', source: { type: 'local_path', path: folder, hostId: host.id } });
    const thread = await api(running.url, '/threads', { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'survives' });
    const socket = new WebSocket(`${running.url.replace('http', 'ws')}/api/v1/intake`, { headers: { authorization: `Bearer ${token}` } });
    await new Promise((resolve) => socket.once('open', resolve));
    await rpc(socket, agentStart(thread.id, 1));
    await rpc(socket, agentEnd(thread.id, 'all done', 2));
    socket.close();
    const events = await api(running.url, `/threads/${thread.id}/events`);
    expect(events.length).to.be.greaterThan(2);

    await running.stop();
    await lockReleased(dataDir);
    running = await npmStart(['--port', '0', '--data-dir', dataDir]);
    const url = running.url;
    expect(await api(url, '/hosts')).to.have.length(1); // the embedded host keeps its id
    expect((await api(url, '/hosts'))[0]).to.deep.include({ id: host.id, online: true });
    expect(await api(url, `/projects/${project.id}`)).to.deep.equal(project);
    expect((await api(url, `/threads/${thread.id}`)).status).to.equal('idle');
    expect(await api(url, `/threads/${thread.id}/events`)).to.deep.equal(events);
    await running.stop();
    await lockReleased(dataDir);
    running = undefined;
  });

  it('takes its settings from ATS_* variables: ATS_TOKEN is the token (no token file), bound to 127.0.0.1 only', async () => {
    const envDataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-start-env-'));
    const token = 'env-token-0123456789abcdef';
    running = await npmStart([], { ATS_PORT: '0', ATS_DATA_DIR: envDataDir, ATS_TOKEN: token, ATS_AGENT_PROVIDERS: 'none' });
    try {
      await eventually(() => (running!.lines.length >= 2 ? true : undefined), 'the token line');
      expect(running.lines[1]).to.equal('token from ATS_TOKEN');
      // The page's sign-in URL: the token in the fragment, which the browser keeps to itself.
      await eventually(() => running!.lines.find((line) => line.startsWith('open ')), 'the sign-in URL line');
      expect(running.lines).to.include(`open ${running.url}/#token=${token}`);
      expect((await fetch(`${running.url}/api/v1/hosts`, { headers: { authorization: `Bearer ${token}` } })).status).to.equal(200);
      expect((await fetch(`${running.url}/api/v1/hosts`, { headers: { authorization: 'Bearer not-the-env-token-123' } })).status).to.equal(
        401,
      );
      expect(await readdir(envDataDir)).to.not.include('token');
      // Reachable on loopback only: the same port on this machine's other addresses refuses the connection.
      const port = Number(new URL(running.url).port);
      const others = Object.values(os.networkInterfaces())
        .flat()
        .filter((address) => address && address.family === 'IPv4' && !address.internal);
      for (const address of others) {
        const refused = await new Promise<boolean>((resolve) => {
          const socket = net.connect(port, address!.address);
          socket.once('connect', () => (socket.destroy(), resolve(false)));
          socket.once('error', () => resolve(true));
        });
        expect(refused, `port ${port} answered on ${address!.address}`).to.equal(true);
      }
    } finally {
      await running.stop();
      running = undefined;
      await rm(envDataDir, { recursive: true, force: true });
    }
  });

  it('runs the server compiled, and compiles it again when a source file is newer than the build', async () => {
    // What prestart compares: the build's stamp against every file under src/ and pipelines/.
    const stamp = path.join(__dirname, '..', '..', 'dist', 'node', '.built');
    const longAgo = new Date('2001-01-01T00:00:00Z');
    await utimes(stamp, longAgo, longAgo);
    const started = await npmStart(['--port', '0', '--data-dir', dataDir]);
    try {
      expect((await stat(stamp)).mtime.getTime()).to.be.greaterThan(longAgo.getTime());
      const commands = await commandsOfGroup(started.child.pid!);
      const server = commands.find((argv) => path.basename(argv[0] ?? '') === 'node');
      expect(server?.[1]).to.equal(path.join('dist', 'node', 'src', 'cli', 'start.js'));
    } finally {
      await started.stop();
    }
  });

  it('refuses a bad option with a message naming it, and exits 1', async () => {
    let failure: Error | undefined;
    await npmStart(['--port', 'many', '--data-dir', dataDir]).catch((error: Error) => (failure = error));
    expect(failure?.message).to.contain('--port');
  });
});

/** A clean shutdown releases the data dir's lock file; a killed server would leave it behind. */
function lockReleased(dataDir: string): Promise<true> {
  return eventually(
    () =>
      access(path.join(dataDir, 'LOCK')).then(
        () => undefined,
        () => true as const,
      ),
    'the lock to be released',
  );
}

/** The argv of each process in a process group (npm, its shell, the server). */
async function commandsOfGroup(pgid: number): Promise<string[][]> {
  const commands: string[][] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // Fields after the command's closing parenthesis: state, ppid, pgrp.
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
    commands.push((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').filter(Boolean));
  }
  return commands;
}
