import { expect } from 'chai';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { openSse } from '../helpers/server/sse';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: signing a browser in with a session cookie', function () {
  this.timeout(30_000);
  let t: TestServer;
  let origin: string;

  before(async () => {
    t = await startTestServer({ dataDir: await tempDir('ats-session-') });
    origin = t.server.url;
  });
  after(async () => t?.close({ keepData: true }));
  const tempDir = suiteTempDirs(); // below the after hooks above: the folders go once the server stopped

  /** Signs in as the page does (its own origin, the token from the URL fragment) and returns the cookie pair. */
  const signIn = async (): Promise<string> => {
    const response = await t.api('/session', { auth: false, body: { token: TEST_TOKEN }, headers: { origin } });
    expect(response.status).to.equal(201);
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie).to.match(/^ats_session=[^;]+/);
    return setCookie.split(';')[0]!;
  };

  it('trades the token for an HttpOnly, SameSite=Strict cookie on path / that works on GET routes', async () => {
    const response = await t.api('/session', { auth: false, body: { token: TEST_TOKEN }, headers: { origin } });
    expect(response.status).to.equal(201);
    const body = (await response.json()) as { expiresAt: string };
    expect(body).to.include({ signedIn: true, via: 'session' });
    expect(Date.parse(body.expiresAt)).to.be.greaterThan(Date.now());
    const attributes = response.headers.get('set-cookie')!.toLowerCase().split(/;\s*/);
    expect(attributes).to.include.members(['path=/', 'samesite=strict', 'httponly']);
    expect(attributes.some((a) => a.startsWith('secure'))).to.equal(false); // plain http: a Secure cookie would never come back

    const cookie = await signIn();
    const hosts = await t.api('/hosts', { auth: false, headers: { cookie } });
    expect(hosts.status).to.equal(200);
    expect(await t.json('/session', { auth: false, headers: { cookie } })).to.include({ signedIn: true, via: 'session' });
  });

  it('takes the token as a bearer header too, and says who is signed in', async () => {
    const response = await t.api('/session', { method: 'POST' });
    expect(response.status).to.equal(201);
    expect(response.headers.get('set-cookie')).to.match(/^ats_session=/);
    expect(await t.json('/session')).to.deep.equal({ signedIn: true, via: 'bearer', expiresAt: null });
  });

  it('refuses a wrong token (401 invalid_token) and a sign-in from another site (403 cross_origin_request)', async () => {
    const wrong = await t.api('/session', { auth: false, body: { token: 'not-the-token' }, headers: { origin } });
    expect(wrong.status).to.equal(401);
    expect(((await wrong.json()) as any).code).to.equal('invalid_token');
    expect(wrong.headers.get('set-cookie')).to.equal(null);
    const crossSite = await t.api('/session', { auth: false, body: { token: TEST_TOKEN }, headers: { origin: 'https://evil.example' } });
    expect(crossSite.status).to.equal(403);
    expect(((await crossSite.json()) as any).code).to.equal('cross_origin_request');
    const noCookie = await t.api('/session', { auth: false });
    expect(noCookie.status).to.equal(401);
  });

  it('opens the SSE stream with the cookie alone (an EventSource sends no header)', async () => {
    const cookie = await signIn();
    const project = await t.json('/projects', {
      body: { name: 'sse', source: { type: 'local_path', path: t.dataDir, hostId: t.server.hostId } },
    });
    const thread = await t.json('/threads', { body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'sse' } });
    const stream = await openSse(`${t.server.url}/api/v1/threads/${thread.id}/events/stream`, { cookie });
    try {
      expect(stream.status).to.equal(200);
      expect(stream.contentType).to.match(/^text\/event-stream/);
    } finally {
      stream.close();
    }
  });

  it('lets a change through with the cookie only from the same origin', async () => {
    const cookie = await signIn();
    const body = { name: 'x', source: { type: 'local_path', path: t.dataDir, hostId: t.server.hostId } };
    for (const headers of <Record<string, string>[]>[
      { cookie },
      { cookie, origin: 'https://evil.example' },
      { cookie, origin: 'null' },
      { cookie, 'sec-fetch-site': 'cross-site' },
    ]) {
      const refused = await t.api('/projects', { auth: false, body, headers });
      expect(refused.status, JSON.stringify(headers)).to.equal(403);
      expect(((await refused.json()) as any).code).to.equal('cross_origin_request');
    }
    expect((await t.api('/projects', { auth: false, body, headers: { cookie, origin } })).status).to.equal(201);
    expect((await t.api('/projects', { auth: false, body, headers: { cookie, 'sec-fetch-site': 'same-origin' } })).status).to.equal(201);
    // A bearer token is never attached by a browser on its own: no origin check.
    expect((await t.api('/projects', { body, headers: { origin: 'https://elsewhere.example' } })).status).to.equal(201);
  });

  it('refuses a tampered, forged or signed-out cookie; a wrong bearer wins over a good cookie', async () => {
    const cookie = await signIn();
    const [name, value] = cookie.split('=') as [string, string];
    const parts = value.split('.');
    const later = `${name}=${parts[0]}.${Number(parts[1]) + 1000}.${parts[2]}`;
    const otherId = `${name}=${'A'.repeat(24)}.${parts[1]}.${parts[2]}`;
    for (const bad of [later, otherId, `${name}=garbage`])
      expect((await t.api('/hosts', { auth: false, headers: { cookie: bad } })).status, bad).to.equal(401);
    expect((await t.api('/hosts', { headers: { cookie, authorization: 'Bearer wrong-token' } })).status).to.equal(401);

    const signOut = await t.api('/session', { method: 'DELETE', auth: false, headers: { cookie, origin } });
    expect(signOut.status).to.equal(204);
    expect(signOut.headers.get('set-cookie')).to.match(/^ats_session=;.*expires=Thu, 01 Jan 1970/i);
    expect((await t.api('/hosts', { auth: false, headers: { cookie } })).status).to.equal(401);
  });

  it('needs no token for the page itself, and a session survives a restart with the same token', async () => {
    const page = await fetch(`${t.server.url}/`);
    expect(page.status).to.not.equal(401);
    const cookie = await signIn();
    const dataDir = t.dataDir;
    await t.close({ keepData: true });
    t = await startTestServer({ dataDir });
    expect((await t.api('/hosts', { auth: false, headers: { cookie } })).status).to.equal(200);
  });
});
