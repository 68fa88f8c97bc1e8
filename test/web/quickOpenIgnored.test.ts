import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { eventually } from '../helpers/server/eventually';
import { ARTIFACTS, requireBrowser } from './browser';
import { startService, type StartedService } from './startedService';

const WAIT = { timeout: 60_000 };

/**
 * Issue 29 in Chromium through `npm start`: in a clone with a built `dist/` that its `.gitignore` ignores,
 * quick-open's top hits for "readme" are the READMEs; the built `dist/a/readme.js` and its `.map` are still
 * there, after them (rule 6: listed and findable).
 */
describe('quick-open in a real browser ranks the READMEs above a built dist/ (issue 29)', function () {
  this.timeout(180_000);
  let project: string;
  let service: StartedService | undefined;
  let page: Page;

  before(async function () {
    requireBrowser(this);
    project = mkdtempSync(path.join(os.tmpdir(), 'ats-clone-'));
    const write = (relative: string, content: string) => {
      mkdirSync(path.dirname(path.join(project, relative)), { recursive: true });
      writeFileSync(path.join(project, relative), content);
    };
    write('.gitignore', 'node_modules\ndist/\n');
    write('README.md', '# the project\n');
    write('docs/README.md', '# the docs\n');
    write('src/index.ts', 'export {};\n');
    write('dist/a/readme.js', 'export {};\n');
    write('dist/a/readme.js.map', '{"version":3}\n');
    service = await startService({ ATS_AGENT_PROVIDERS: 'none' });
    await service.api('/projects', { name: 'clone', source: { type: 'local_path', path: project, hostId: service.hostId } });
    ({ page } = await service.signIn());
    await page.getByRole('region', { name: 'Project clone' }).waitFor(WAIT);
  });
  after(async () => {
    await service?.stop();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('the top two hits for "readme" are README.md and docs/README.md; dist/a/readme.js and its .map follow', async () => {
    await page.keyboard.press('Control+P');
    const dialog = page.getByRole('dialog', { name: 'Quick open' });
    await dialog.getByRole('combobox').fill('readme');
    const options = dialog.getByRole('listbox').getByRole('option');
    const texts = await eventually(
      async () => {
        // A row shows the name, then its folder: the path is the two joined.
        const all = await options.evaluateAll((rows) =>
          rows.map((row) => {
            const name = row.querySelector('.result-name')?.textContent ?? '';
            const folder = (row.querySelector('.result-path')?.textContent ?? '').replace(/\/$/, '');
            return folder && folder !== '.' ? `${folder}/${name}` : name;
          }),
        );
        return all.length === 4 ? all : undefined;
      },
      'four hits for "readme"',
      30_000,
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'quick-open-ignored-last.png') });
    expect(texts).to.deep.equal(['README.md', 'docs/README.md', 'dist/a/readme.js', 'dist/a/readme.js.map']);
  });
});
