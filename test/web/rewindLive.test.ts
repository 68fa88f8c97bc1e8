import { expect } from 'chai';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { AgentProvider } from '../../src/daemon/providers/agentProvider';
import { initRepo } from '../helpers/git/gitRepo';
import type { TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';
import { catalogProvider, WAIT } from './approvalPage';
import { ARTIFACTS } from './browser';
import { startPageSuite, type PageSuite } from './pageSuite';

/** The catalog's fake agent, but a prompt `write <name>` first writes that file in the thread's folder. */
function writingProvider(): AgentProvider {
  const inner = catalogProvider('pi', 'fake/pi-model');
  return {
    ...inner,
    async openThread(options) {
      const agent = await inner.openThread(options);
      return {
        ...agent,
        async prompt(text) {
          writeFileSync(path.join(options.cwd, text.split(' ').at(-1)!), `${text}\n`);
          return agent.prompt(text);
        },
      };
    },
  };
}

/**
 * Issue 39's per-turn actions in Chromium against the real routes: each turn offers Fork and Revert, each asks
 * first saying what it changes; a confirmed revert takes the files back and dims the undone turns (kept in the
 * log); Undo revert brings the files back and the dimming goes.
 */
describe('the web page: a turn’s Fork from here and Revert to before this turn, with their confirmations (issue 39)', function () {
  this.timeout(120_000);
  const tempDir = suiteTempDirs();
  let suite: PageSuite;
  let t: TestServer;
  let page: Page;
  let folder: string;

  before(async function () {
    suite = await startPageSuite(this, 'rewind', [writingProvider()]);
    t = suite.t;
    folder = await tempDir('ats-web-rewind-');
    initRepo(folder, { 'README.md': '# demo\n' });
    const project = await t.json<{ id: string }>('/projects', {
      body: { name: 'rewind demo', source: { type: 'local_path', path: folder, hostId: t.server.hostId } },
    });
    const thread = await t.json<{ id: string }>('/threads', {
      body: { projectId: project.id, provider: 'pi', model: 'fake/pi-model', title: 'Two files', prompt: 'write first.txt' },
    });
    page = await suite.signIn();
    await page.goto(`${t.server.url}/#/threads/${encodeURIComponent(thread.id)}`);
    await page.getByRole('log').getByText('Completed', { exact: true }).waitFor(WAIT);
    await page.getByLabel('Prompt').fill('write second.txt');
    await page.getByLabel('Prompt').press('Enter');
    await page.getByRole('log').getByText('Completed', { exact: true }).nth(1).waitFor(WAIT);
  });
  after(() => suite?.close());

  const turns = () => page.locator('section.turn');

  it('Fork from here asks first, saying the thread stays as it is; Cancel changes nothing', async () => {
    await turns().nth(0).getByRole('button', { name: 'Fork from here' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Fork from here?' });
    expect(await dialog.textContent()).to.contain('This thread and its files stay as they are.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByRole('alertdialog').count()).to.equal(0);
  });

  it('Revert to before the second turn: asked first, the file goes, that turn is dimmed and kept; Undo revert brings it back', async () => {
    await turns().nth(1).getByRole('button', { name: 'Revert to before this turn' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revert to before this turn?' });
    expect(await dialog.textContent()).to.contain('go back to how they were when this turn started');
    await dialog.getByRole('button', { name: 'Revert files' }).click();
    await turns().nth(1).getByText('Reverted: its file changes are undone').waitFor(WAIT);
    expect(await turns().count()).to.equal(2);
    expect(await turns().nth(0).getAttribute('class')).to.not.contain('reverted');
    expect(existsSync(path.join(folder, 'second.txt'))).to.equal(false);
    expect(existsSync(path.join(folder, 'first.txt'))).to.equal(true);
    await page.screenshot({ path: path.join(ARTIFACTS, 'rewind-01-reverted.png') });

    await turns().nth(1).getByRole('button', { name: 'Undo revert' }).click();
    await page.getByRole('alertdialog', { name: 'Undo the revert?' }).getByRole('button', { name: 'Undo revert' }).click();
    await turns().nth(1).getByRole('button', { name: 'Revert to before this turn' }).waitFor(WAIT);
    expect(await turns().nth(1).getAttribute('class')).to.not.contain('reverted');
    expect(existsSync(path.join(folder, 'second.txt'))).to.equal(true);
  });
});
