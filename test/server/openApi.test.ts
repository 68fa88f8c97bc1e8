import { expect } from 'chai';
import type Router from '@koa/router';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { configWith } from '../../src/config/serverConfig';
import { createApp } from '../../src/server/createApp';
import { agentEnd, agentStart, assistantStart, sdk, textDelta } from '../helpers/server/frames';
import { rpc, startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

type Operation = {
  parameters?: unknown[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};

describe('server: GET /api/v1/openapi.json, generated from the routes’ own schemas', function () {
  this.timeout(30_000);
  let t: TestServer;
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  after(async () => t?.close());
  const tempDir = suiteTempDirs(); // below the after hook above: the folder goes once the server stopped

  before(async () => {
    t = await startTestServer();
    const response = await fetch(`${t.server.url}/api/v1/openapi.json`); // no token: it holds no data
    expect(response.status).to.equal(200);
    doc = (await response.json()) as typeof doc;
  });

  /** The document's schema of one answer, as a zod schema (z.fromJSONSchema): the document itself judges. */
  const schemaOf = (method: string, pathname: string, status: number, contentType = 'application/json') => {
    const operation = doc.paths[`/api/v1${pathname}`]?.[method];
    expect(operation, `${method} ${pathname} in the document`).to.not.equal(undefined);
    const content = operation!.responses[String(status)]?.content?.[contentType];
    expect(content, `${method} ${pathname} → ${status} ${contentType}`).to.not.equal(undefined);
    return z.fromJSONSchema(content!.schema as never);
  };
  const problemSchema = () => z.fromJSONSchema(doc.components.schemas['Problem'] as never);

  /** Calls the real server and checks the answer against the document: its status and body. */
  const call = async (
    method: string,
    documented: string,
    actual: string,
    status: number,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await t.api(actual, { method: method.toUpperCase(), body, headers });
    const text = await response.text();
    expect(response.status, `${method} ${actual}: ${text}`).to.equal(status);
    if (status === 204) return undefined;
    const json = JSON.parse(text);
    const schema = status >= 400 ? problemSchema() : schemaOf(method, documented, status);
    const parsed = schema.safeParse(json);
    expect(parsed.success, `${method} ${actual} does not match the document: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`).to.equal(
      true,
    );
    return json;
  };

  it('is OpenAPI 3.1 and lists exactly the routes the app registers, with their methods', () => {
    expect(doc.openapi).to.equal('3.1.0');
    const app = createApp({
      config: configWith({ dataDir: t.dataDir }),
      token: TEST_TOKEN,
      registry: t.server.registry,
      hosts: t.server.hosts,
      store: t.server.store,
      search: t.server.search,
      hub: t.server.hub,
      hostAccess: t.server.hostAccess,
      revocations: t.server.revocations,
      log: () => {},
    });
    const registered = new Set<string>();
    for (const middleware of app.middleware as Array<{ router?: Router }>) {
      for (const layer of middleware.router?.stack ?? []) {
        for (const method of layer.methods.filter((m) => m !== 'HEAD'))
          registered.add(`${method.toLowerCase()} ${String(layer.path).replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`);
      }
    }
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([pathname, operations]) => Object.keys(operations).map((method) => `${method} ${pathname}`)),
    );
    expect([...registered].sort()).to.deep.equal([...documented].sort());
    expect(registered.size).to.be.greaterThan(15);
  });

  it('describes query parameters and bodies from the schemas the handlers parse with', () => {
    const events = doc.paths['/api/v1/threads/{id}/events']!['get']!;
    expect((events.parameters as Array<{ name: string; in: string }>).map((p) => `${p.in}:${p.name}`)).to.deep.equal([
      'path:id',
      'query:afterSeq',
      'query:beforeSeq',
      'query:tail',
      'query:limit',
    ]);
    const createThread = doc.paths['/api/v1/threads']!['post']!.requestBody as {
      content: Record<string, { schema: { required: string[]; additionalProperties: boolean } }>;
    };
    expect(createThread.content['application/json']!.schema.required).to.have.members(['projectId', 'provider', 'model', 'title']);
    expect(createThread.content['application/json']!.schema.additionalProperties).to.equal(false);
    // The document's body schema refuses what the handler refuses.
    const body = z.fromJSONSchema(createThread.content['application/json']!.schema as never);
    expect(body.safeParse({ projectId: 'p', provider: 'pi', model: 'm', title: 't' }).success).to.equal(true);
    expect(body.safeParse({ projectId: 'p', provider: 'pi', model: 'm', title: 't', extra: 1 }).success).to.equal(false);
  });

  it('real answers of every route validate against the document', async () => {
    const folder = await tempDir('ats-openapi-');
    await writeFile(path.join(folder, 'notes.txt'), 'hello\n');
    const hostId = t.server.hostId;
    await call('get', '/health', '/health', 200);
    await call('post', '/session', '/session', 201, { token: TEST_TOKEN });
    await call('get', '/session', '/session', 200);
    await call('get', '/hosts', '/hosts', 200);
    await call('get', '/hosts/{id}', `/hosts/${hostId}`, 200);
    await call('get', '/hosts/{id}/models', `/hosts/${hostId}/models`, 200);
    await call('get', '/hosts/{id}/directories', `/hosts/${hostId}/directories?path=${encodeURIComponent(folder)}`, 200);
    const enrollment = await call('post', '/hosts/enrollments', '/hosts/enrollments', 201);
    await call('post', '/hosts/enroll', '/hosts/enroll', 201, { code: enrollment.code, hostId: 'host_documented' });
    await call('delete', '/hosts/{id}', '/hosts/host_documented', 204);
    const project = await call('post', '/projects', '/projects', 201, {
      name: 'doc',
      source: { type: 'local_path', path: folder, hostId },
    });
    await call('get', '/projects', '/projects', 200);
    await call('get', '/projects/{id}', `/projects/${project.id}`, 200);
    await call('get', '/projects/{id}/paths', `/projects/${project.id}/paths?query=nts&limit=5`, 200);
    const environment = await call('post', '/environments', '/environments', 201, { hostId, path: folder });
    await call('get', '/environments/{id}', `/environments/${environment.id}`, 200);
    await call('get', '/environments/{id}/paths', `/environments/${environment.id}/paths`, 200);
    await call('post', '/files/read', '/files/read', 200, { hostId, path: path.join(folder, 'notes.txt') });
    const thread = await call('post', '/threads', '/threads', 201, {
      projectId: project.id,
      provider: 'pi',
      model: 'fake/model',
      title: 'documented',
    });
    const socket = await t.intake();
    const user = { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 1 };
    for (const frame of [
      agentStart(thread.id),
      sdk(thread.id, { type: 'message_start', message: user }),
      sdk(thread.id, { type: 'message_end', message: user }),
      assistantStart(thread.id),
      textDelta(thread.id, 'Hel'),
      agentEnd(thread.id, 'Hello'),
    ]) {
      await rpc(socket, { ...frame, id: Math.random() });
    }
    socket.close();
    const rows = await call('get', '/threads/{id}/events', `/threads/${thread.id}/events?afterSeq=0&limit=100`, 200);
    expect(rows.map((row: { type: string }) => row.type)).to.include.members([
      'turn/started',
      'item/started',
      'item/agentMessage/delta',
      'item/completed',
      'turn/completed',
    ]);
    await call('get', '/threads', `/threads?projectId=${project.id}`, 200);
    await call('get', '/search', `/search?q=hello&projectId=${project.id}&limit=5`, 200); // issue 31
    await call('get', '/threads/{id}', `/threads/${thread.id}`, 200);
    await call('post', '/threads/{id}/stop', `/threads/${thread.id}/stop`, 200);
    await call('post', '/threads/{id}/messages', `/threads/${thread.id}/messages`, 409, { prompt: 'no agent here' }); // a problem, as documented
    await call('get', '/threads/{id}', '/threads/thr_missing', 404);
    await call('get', '/openapi.json', '/openapi.json', 200);
    await call('delete', '/session', '/session', 204);

    const stream = await t.api(`/threads/${thread.id}/events/stream`);
    expect(stream.headers.get('content-type')).to.match(/^text\/event-stream/);
    expect(doc.paths['/api/v1/threads/{id}/events/stream']!['get']!.responses['200']!.content).to.have.property('text/event-stream');
    await stream.body?.cancel();
  });

  it('marks exactly the routes that answer without a token as public (security: [])', async () => {
    for (const [pathname, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations) as Array<[string, Operation & { security?: unknown[] }]>) {
        const concrete = pathname.replace(/\{[^}]+\}/g, 'x_unknown');
        const response = await fetch(`${t.server.url}${concrete}`, { method: method.toUpperCase() });
        await response.body?.cancel();
        const documentedPublic = Array.isArray(operation.security) && operation.security.length === 0;
        // Public routes may still refuse (POST /session without a token is 401 invalid_token): the code tells which.
        const refusedForNoToken = response.status === 401 && response.headers.get('www-authenticate') !== null;
        expect(refusedForNoToken, `${method} ${pathname} → ${response.status}`).to.equal(!documentedPublic);
      }
    }
  });

  it('the answer schemas are strict enough to catch a wrong answer', () => {
    const threadSchema = schemaOf('get', '/threads/{id}', 200);
    const good = {
      id: 'thr_1',
      projectId: 'p',
      environmentId: 'e',
      hostId: 'h',
      provider: 'pi',
      model: 'm',
      title: 't',
      createdAt: 'now',
      archived: false,
      keepAgentRunning: false,
      agent: 'stopped',
      status: 'idle',
      lastTurnStatus: null,
      runtime: { displayStatus: 'idle', hostReconnectGraceExpiresAt: null, activity: 'idle', pendingApprovalIds: [] },
      workspace: { kind: 'checkout', path: '/p', branch: null, baseRef: null, baseCommit: null, state: 'ready' },
      pullRequests: [],
    };
    expect(threadSchema.safeParse(good).success).to.equal(true);
    expect(threadSchema.safeParse({ ...good, status: 'sleeping' }).success).to.equal(false);
    const { runtime: _runtime, ...withoutRuntime } = good;
    expect(threadSchema.safeParse(withoutRuntime).success).to.equal(false);
  });
});
