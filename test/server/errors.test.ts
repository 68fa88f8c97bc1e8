import { expect } from 'chai';
import path from 'node:path';
import { connectInProcess } from '../../src/server/hosts/inProcessLink';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../src/protocol/protocolVersion';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

/** Every error body: problem+json, a stable code, the status repeated, and never a stack trace. */
async function expectProblem(response: Response, status: number, code: string): Promise<any> {
  expect(response.status).to.equal(status);
  expect(response.headers.get('content-type')).to.equal('application/problem+json');
  const text = await response.text();
  expect(text).not.to.match(/\n\s+at |\.ts:\d+/);
  const problem = JSON.parse(text);
  expect(problem).to.deep.include({ status, code });
  expect(problem.title).to.be.a('string');
  expect(problem.detail).to.be.a('string');
  return problem;
}

describe('server: bad input and security', () => {
  let t: TestServer;
  let projectId: string;

  before(async () => {
    t = await startTestServer({ config: { maxBodyBytes: 1024 } });
    const folder = await tempDir('ats-errors-');
    projectId = (await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: folder, hostId: t.server.hostId } } }))
      .id;
  });
  after(() => t.close());

  const tempDir = suiteTempDirs();

  it('answers 401 problem+json on every route without a bearer token, except /health', async () => {
    const routes: [string, string][] = [
      ['GET', '/hosts'],
      ['GET', '/hosts/host_x'],
      ['GET', '/projects'],
      ['POST', '/projects'],
      ['GET', `/projects/${projectId}`],
      ['GET', `/projects/${projectId}/paths`],
      ['POST', '/environments'],
      ['GET', '/environments/env_x'],
      ['GET', '/environments/env_x/paths'],
      ['GET', '/threads'],
      ['POST', '/threads'],
      ['GET', '/threads/thr_x'],
      ['POST', '/threads/thr_x/messages'],
      ['POST', '/threads/thr_x/stop'],
      ['GET', '/threads/thr_x/events'],
      ['GET', '/threads/thr_x/events/stream'],
      ['POST', '/files/read'],
      ['GET', '/no/such/route'],
    ];
    for (const [method, route] of routes) {
      const response = await t.api(route, { method, auth: false });
      await expectProblem(response, 401, 'unauthorized');
      expect(response.headers.get('www-authenticate')).to.match(/^Bearer/);
    }
    const wrong = await t.api('/hosts', { headers: { authorization: 'Bearer not-the-token-at-all' } });
    await expectProblem(wrong, 401, 'unauthorized');
    const health = await t.api('/health', { auth: false });
    expect(health.status).to.equal(200);
  });

  it('answers 400 invalid_json for a body that is not JSON, 415 for another content type', async () => {
    await expectProblem(
      await t.api('/projects', { body: '{"name": ', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
    await expectProblem(
      await t.api('/projects', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('answers 400 invalid_body with zod issues (path + message) for a body failing its schema', async () => {
    const problem = await expectProblem(await t.api('/projects', { body: { name: '', extra: true } }), 400, 'invalid_body');
    const paths = problem.issues.map((issue: { path: string[] }) => issue.path.join('.'));
    expect(paths).to.include.members(['name', 'source', '']);
  });

  it('answers 413 body_too_large beyond maxBodyBytes, declared or streamed without a length', async () => {
    const problem = await expectProblem(await t.api('/projects', { body: { name: 'x'.repeat(2000) } }), 413, 'body_too_large');
    expect(problem.maxBytes).to.equal(1024);
    // Chunked: no content-length to refuse up front, so the limit must hold while the body is read.
    const chunks = [`{"name":"`, 'x'.repeat(800), 'x'.repeat(800), '"}'];
    const body = new ReadableStream({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk === undefined) controller.close();
        else controller.enqueue(new TextEncoder().encode(chunk));
      },
    });
    const streamed = await fetch(`${t.server.url}/api/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.server.token}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    await expectProblem(streamed, 413, 'body_too_large');
  });

  it('answers 500 internal_error without a stack trace or the cause when a handler fails unexpectedly', async () => {
    const { projects } = t.server.registry;
    const find = projects.find;
    projects.find = () => Promise.reject(new Error('secret cause: disk /var/lib/ats failed'));
    try {
      const problem = await expectProblem(await t.api('/projects'), 500, 'internal_error');
      expect(JSON.stringify(problem)).to.not.contain('secret cause');
    } finally {
      projects.find = find;
    }
    expect((await t.api('/projects')).status).to.equal(200);
  });

  it('answers 404 for an unknown id and for an unknown route', async () => {
    await expectProblem(await t.api('/projects/proj_nope'), 404, 'project_not_found');
    await expectProblem(await t.api('/environments/env_nope'), 404, 'environment_not_found');
    await expectProblem(await t.api('/threads/thr_nope'), 404, 'thread_not_found');
    await expectProblem(await t.api('/nothing-here'), 404, 'route_not_found');
  });

  it('answers 405 method_not_allowed with an Allow header', async () => {
    const response = await t.api(`/projects/${projectId}`, { method: 'DELETE' });
    expect(response.headers.get('allow')).to.contain('GET');
    await expectProblem(response, 405, 'method_not_allowed');
  });

  it('answers 504 host_timeout when a host does not answer in time', async () => {
    const silent = connectInProcess(
      {
        hello: { protocolVersion: HOST_DAEMON_PROTOCOL_VERSION, hostId: 'host_silent', name: 'silent', platform: 'test', providers: [] },
        dispatch: () => new Promise(() => {}),
      },
      { timeoutMs: 100 },
    );
    await t.server.hosts.attach(silent);
    await expectProblem(await t.api('/environments', { body: { hostId: 'host_silent', path: '/tmp' } }), 504, 'host_timeout');
    await silent.close();
  });

  it('answers 502 host_offline when the host is not connected, and lists it offline', async () => {
    const other = await startTestServer();
    const folder = await tempDir('ats-offline-');
    const project = await other.json('/projects', {
      body: { name: 'p', source: { type: 'local_path', path: folder, hostId: other.server.hostId } },
    });
    const thread = await other.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'm', title: 't' } });
    await other.server.hosts.closeAll();
    await expectProblem(await other.api(`/projects/${project.id}/paths`), 502, 'host_offline');
    await expectProblem(
      await other.api('/files/read', { body: { hostId: other.server.hostId, path: `${folder}/x` } }),
      502,
      'host_offline',
    );
    const [host] = await other.json('/hosts');
    expect(host.online).to.equal(false);
    // Offline: the moment the link dropped, unchanged by later requests.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await other.json('/hosts'))[0].lastSeenAt).to.equal(host.lastSeenAt);
    const view = await other.json(`/threads/${thread.id}`);
    // Just dropped: within the reconnect grace (docs/hosts.md); `waiting-for-host` once it runs out.
    expect(view.runtime.displayStatus).to.equal('host-reconnecting');
    expect(view.runtime.hostReconnectGraceExpiresAt).to.be.a('number');
    await other.close();
  });
});
