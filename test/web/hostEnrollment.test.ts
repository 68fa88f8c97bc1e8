import { expect } from 'chai';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { LINK_CLOSE } from '../../src/protocol/daemonLink';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { helloAs } from '../server/hostAccess/rawLink';
import { buildPage, WAIT } from './approvalPage';
import { ARTIFACTS, launchBrowser, requireBrowser, type Browser } from './browser';

/** Issue 30's page in Debian's Chromium: "Add host" shows the command with a one-time code; "Remove" asks first. */
describe('the web page in a real browser: add a host with an enrollment code, remove one with a confirmation (issue 30)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let browser: Browser | undefined;
  let page: Page;
  const hosts = () => page.getByRole('region', { name: 'Hosts' });

  before(async function () {
    requireBrowser(this);
    buildPage();
    t = await startTestServer({ config: { agentProviders: 'none' } });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
    await page.getByRole('heading', { name: 'Hosts' }).waitFor(WAIT);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('"Add host" shows the command to run once, with a code the server takes once', async () => {
    await hosts().getByRole('button', { name: 'Add host' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a host' });
    const command = (await dialog.getByLabel('Command to run on the new host').textContent({ timeout: WAIT.timeout }))!.trim();
    const prefix = `npm run daemon -- --server ${t.server.url} --enroll `;
    expect(command.startsWith(prefix), command).to.equal(true);
    const code = command.slice(prefix.length);
    await page.screenshot({ path: path.join(ARTIFACTS, 'host-enroll.png') });
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(await page.getByRole('dialog', { name: 'Add a host' }).count()).to.equal(0);

    const first = await t.api('/hosts/enroll', { auth: false, body: { code, hostId: 'host_frompage' } });
    expect(first.status).to.equal(201);
    const again = await t.api('/hosts/enroll', { auth: false, body: { code, hostId: 'host_frompagetoo' } });
    expect(again.status).to.equal(401);
  });

  it('"Remove" asks first; confirming closes the host’s link (4006) and takes it off the list; the server’s own host has no such button', async () => {
    const { code } = await t.json('/hosts/enrollments', { method: 'POST' });
    const { credential } = await t.json('/hosts/enroll', { auth: false, body: { code, hostId: 'host_toremove' } });
    const linked = await helloAs(t.server.url, credential, 'host_toremove');
    if (!('socket' in linked)) throw new Error(`not attached: ${JSON.stringify(linked)}`);
    const entry = hosts().getByRole('listitem').filter({ hasText: 'raw' });
    await entry.waitFor(WAIT);
    expect(
      await hosts()
        .getByRole('button', { name: /^Remove host/ })
        .count(),
      'only the remote host',
    ).to.equal(1);

    await entry.getByRole('button', { name: 'Remove host raw' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove host raw?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await t.json('/hosts/host_toremove')).online).to.equal(true);

    await entry.getByRole('button', { name: 'Remove host raw' }).click();
    await page.screenshot({ path: path.join(ARTIFACTS, 'host-remove.png') });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    expect((await linked.closed).code).to.equal(LINK_CLOSE.revoked);
    await entry.waitFor({ state: 'detached', ...WAIT });
    expect((await t.api('/hosts/host_toremove')).status).to.equal(404);
  });
});
