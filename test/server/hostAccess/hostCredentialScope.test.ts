import { expect } from 'chai';
import WebSocket from 'ws';
import { LINK_CLOSE } from '../../../src/protocol/daemonLink';
import { startTestServer, type TestServer } from '../../helpers/server/harness';
import { enrollmentCode } from './daemons';
import { helloAs } from './rawLink';

describe('hosts: a host credential attaches its own host over /api/v1/daemon and does nothing else (issue 30)', function () {
  this.timeout(60_000);
  let t: TestServer;
  let credential: string;
  const hostId = 'host_scope0123';

  before(async () => {
    t = await startTestServer({ config: { agentProviders: 'none' } });
    const { code } = await enrollmentCode(t);
    const enrolled = await t.json('/hosts/enroll', { auth: false, body: { code, hostId } });
    expect(enrolled.hostId).to.equal(hostId);
    credential = enrolled.credential;
  });
  after(async () => t?.close());

  it('is refused (401 or 403) on every route of the API document, public ones included', async () => {
    const doc = await t.json('/openapi.json');
    let checked = 0;
    for (const [pathname, operations] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(operations)) {
        const concrete = pathname.replace(/\{[^}]+\}/g, hostId);
        const response = await fetch(`${t.server.url}${concrete}`, {
          method: method.toUpperCase(),
          headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
          body: method === 'get' || method === 'delete' ? undefined : JSON.stringify({}),
        });
        const body = await response.text();
        expect([401, 403], `${method} ${pathname} → ${response.status} ${body}`).to.include(response.status);
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(20);
    // Its own DELETE /hosts/{id} among them was refused too: the attach below still works.
  });

  it('is refused on the intake socket', async () => {
    const socket = new WebSocket(`${t.server.url.replace('http', 'ws')}/api/v1/intake`, {
      headers: { authorization: `Bearer ${credential}` },
    });
    const status = await new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_req, response) => resolve(response.statusCode ?? 0));
      socket.once('open', () => resolve(101));
      socket.once('error', () => {});
    });
    socket.terminate();
    expect(status).to.equal(401);
  });

  it('attaches as its own host id, and is closed with 4007 as any other', async () => {
    const other = await helloAs(t.server.url, credential, 'host_someoneelse');
    expect(other).to.have.property('closed');
    expect((other as { closed: { code: number } }).closed.code).to.equal(LINK_CLOSE.wrongHost);
    expect((await t.json('/hosts')).map((h: { id: string }) => h.id)).to.not.include('host_someoneelse');

    const own = await helloAs(t.server.url, credential, hostId);
    expect(own).to.have.property('attached', true);
    expect((await t.json(`/hosts/${hostId}`)).online).to.equal(true);
    if ('socket' in own) own.socket.close();
  });

  it('a code cannot take over a host that holds a credential, nor the server’s own host (409); the code stays usable', async () => {
    const { code } = await enrollmentCode(t);
    for (const [taken, problem] of [
      [hostId, 'host_already_enrolled'],
      [t.server.hostId, 'host_is_embedded'],
    ]) {
      const refused = await t.api('/hosts/enroll', { auth: false, body: { code, hostId: taken } });
      expect(refused.status).to.equal(409);
      expect((await refused.json()).code).to.equal(problem);
    }
    expect((await t.api('/hosts/enroll', { auth: false, body: { code, hostId: 'host_scopeother' } })).status).to.equal(201);
  });

  it('a wrong secret for the same host is refused at the upgrade (401)', async () => {
    const forged = credential.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    expect(await helloAs(t.server.url, forged, hostId)).to.deep.equal({ refusedStatus: 401 });
  });
});
