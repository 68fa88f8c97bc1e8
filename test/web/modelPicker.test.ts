import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { fakeProvider, type FakeProvider } from '../helpers/fakes/provider';
import { startTestServer, TEST_TOKEN, type TestServer } from '../helpers/server/harness';
import { buildPage, WAIT } from './approvalPage';
import { ARTIFACTS, launchBrowser, requireBrowser, type Browser } from './browser';

/** An agent whose catalog holds `models`: [id, name, whether this host can run it]. */
function modelsProvider(id: string, models: Array<[model: string, name: string, available: boolean]>): FakeProvider {
  return {
    ...fakeProvider(id),
    listModels: async () => models.map(([model, name, available]) => ({ provider: id, model, name, available })),
  };
}

/**
 * Issue 29's model picker in Debian's Chromium: the models this host can run first, searchable, the rest
 * behind "Show all", and a note saying what to set when none can run. On the in-process test server, not
 * `npm start`: the rules need a catalog the test controls (two agents, runnable and unrunnable models), where
 * pi's real one holds ~970 models whose availability depends on the keys of the machine running the test.
 * Screenshots go to test-artifacts/web/look-*.png.
 */
describe('the model picker in a real browser: runnable models first, "Show all", what to set (issue 29)', function () {
  this.timeout(120_000);
  let t: TestServer;
  let folder: string;
  let browser: Browser | undefined;
  let page: Page;
  let projectId: string;

  before(async function () {
    requireBrowser(this);
    buildPage();
    folder = mkdtempSync(path.join(os.tmpdir(), 'ats-web-picker-'));
    t = await startTestServer({
      providers: [
        modelsProvider('pi', [
          ['amazon-bedrock/anthropic.claude-opus', 'Claude Opus (Bedrock)', false],
          ['local/qwen2.5-coder', 'Qwen 2.5 Coder (local)', true],
          ['google/gemini-2.5-pro', 'Gemini 2.5 Pro', false],
          ['openai/gpt-4.1', 'GPT-4.1', true],
        ]),
        modelsProvider('claude', [['anthropic/claude-sonnet-4', 'Claude Sonnet 4', false]]),
      ],
    });
    const project = await t.json<{ id: string }>('/projects', {
      body: { name: 'demo', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    projectId = project.id;
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    await page.goto(`${t.server.url}/#token=${TEST_TOKEN}`);
    await page.getByRole('region', { name: 'Project demo' }).waitFor(WAIT);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `look-${name}.png`) });

  it('the model picker offers the models this host can run, searchable, the rest behind "Show all" (issue 29)', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${t.server.url}/#/projects/${projectId}/threads/new`);
    const models = page.getByRole('listbox', { name: 'Models' });
    const options = models.getByRole('option');
    await options.first().waitFor(WAIT);
    expect(await options.allTextContents()).to.deep.equal(['Qwen 2.5 Coder (local) — local/qwen2.5-coder', 'GPT-4.1 — openai/gpt-4.1']);
    expect(await models.getByRole('option', { selected: true }).textContent()).to.contain('local/qwen2.5-coder');
    await page.getByLabel('Model', { exact: true }).fill('gpt');
    expect(await options.allTextContents()).to.deep.equal(['GPT-4.1 — openai/gpt-4.1']);
    await page.getByLabel('Model', { exact: true }).press('Enter');
    expect(await models.getByRole('option', { selected: true }).textContent()).to.contain('openai/gpt-4.1');
    await page.getByLabel('Model', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Show all 4 models' }).click();
    expect(await options.count()).to.equal(4);
    expect(await options.filter({ hasText: 'no key' }).count()).to.equal(2);
    await shot('model-picker');
    await page.getByRole('button', { name: /Show only the 2/ }).click();

    await page.getByLabel('Title').fill('Picked from the list');
    const created = page.waitForRequest((request) => request.method() === 'POST' && request.url().endsWith('/api/v1/threads'));
    await page.getByRole('button', { name: 'Create thread' }).click();
    expect((await created).postDataJSON()).to.deep.include({ provider: 'pi', model: 'openai/gpt-4.1' });
    await page.getByRole('heading', { name: 'Picked from the list' }).waitFor(WAIT);
  });

  it('with no model this host can run, the form says which key or local model to set and chooses none (issue 29)', async () => {
    await page.goto(`${t.server.url}/#/projects/${projectId}/threads/new`);
    await page
      .getByLabel('Agent')
      .locator('option', { hasText: 'Claude Code' })
      .waitFor({ ...WAIT, state: 'attached' });
    await page.getByLabel('Agent').selectOption({ label: 'Claude Code' });
    const help = page.getByRole('note').filter({ hasText: 'No model can run on this host yet.' });
    await help.waitFor(WAIT);
    expect(await help.textContent())
      .to.contain('ANTHROPIC_API_KEY')
      .and.contain('OPENAI_API_KEY')
      .and.contain('models.json')
      .and.contain('docs/pi.md');
    expect(await page.getByText('No model chosen.').count()).to.equal(1);
    await page.getByLabel('Title').fill('Cannot run yet');
    expect(await page.getByRole('button', { name: 'Create thread' }).isDisabled()).to.equal(true);
    await shot('no-usable-model');
    await page.getByRole('button', { name: 'Show all 1 model' }).click();
    await page.getByRole('option', { name: /claude-sonnet-4/ }).click();
    expect(await page.getByRole('button', { name: 'Create thread' }).isEnabled()).to.equal(true);
  });
});
