import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { lastUserText, scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../helpers/fakes/modelServer';
import { createPiSandbox, type PiSandbox } from '../providers/pi/piSandbox';
import { ARTIFACTS, requireBrowser } from './browser';
import { startService, type StartedService } from './startedService';

const WAIT = { timeout: 60_000 };
const NOTES = '# Notes\nRun npm test first.\nThen ship.\n';

/**
 * Issue 38's loop end to end in Chromium through `npm start`, nothing answered by the test: a thread made
 * with "Run in a worktree" from the form, the real pi agent (on the fake model server) writes a new file in
 * its worktree, the Changes view shows it all added, a comment written on one of its lines goes with the
 * next prompt, and the model receives it; the transcript shows the sent card.
 */
describe('the review loop in a real browser against the real server and agent (issue 38)', function () {
  this.timeout(180_000);
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let service: StartedService | undefined;
  let page: Page;

  before(async function () {
    requireBrowser(this);
    model = await startFakeModelServer(
      scriptByPrompt({
        'Write the notes': [
          { kind: 'toolCall', toolName: 'write', args: { path: 'notes.md', content: NOTES }, callId: 'call_write_notes' },
          { kind: 'text', chunks: ['Written.'] },
        ],
        'Address the review': [{ kind: 'text', chunks: ['Done as asked.'] }],
      }),
    );
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: sandbox.projectDir, stdio: 'ignore' });
    writeFileSync(path.join(sandbox.projectDir, 'README.md'), '# Demo\n');
    git('init', '-q', '-b', 'main');
    git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'add', '-A');
    git('-c', 'user.email=t@example.invalid', '-c', 'user.name=t', 'commit', '-q', '-m', 'base');
    service = await startService({ ATS_AGENT_PROVIDERS: 'pi', PI_CODING_AGENT_DIR: sandbox.agentDir });
    const project = await service.api('/projects', {
      name: 'review demo',
      source: { type: 'local_path', path: sandbox.projectDir, hostId: service.hostId },
    });
    ({ page } = await service.signIn());
    await page.evaluate((hash) => (location.hash = hash), `#/projects/${project.id}/threads/new`);
    await page.getByRole('heading', { name: 'New thread in review demo' }).waitFor(WAIT);
  });
  after(async () => {
    await service?.stop();
    await model?.close();
    sandbox?.remove();
  });

  const log = () => page.getByRole('log');
  const changes = () => page.getByRole('region', { name: 'Changes' });
  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

  it('"Run in a worktree" makes a thread in a worktree of its own: the agent writes there, the checkout stays clean', async () => {
    await page.getByLabel('Title').fill('Write the notes');
    await page.getByLabel('Model', { exact: true }).fill('fake-model');
    await page
      .getByRole('listbox', { name: 'Models' })
      .getByRole('option', { name: /fake-model/ })
      .first()
      .click();
    await page.getByRole('checkbox', { name: /Run in a worktree/ }).check();
    expect(await page.getByLabel('Base branch').getAttribute('placeholder')).to.match(/HEAD/);
    await page.getByLabel('First prompt (optional)').fill('Write the notes');
    await page.getByRole('button', { name: 'Create thread' }).click();
    await log().getByText('Written.').waitFor(WAIT);
    await log().getByText('Completed', { exact: true }).waitFor(WAIT);
    const threadId = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
    const thread = await service!.api(`/threads/${threadId}`);
    expect(thread.workspace).to.include({ kind: 'worktree', state: 'ready' });
    expect(thread.workspace.path).to.not.equal(sandbox.projectDir);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: sandbox.projectDir, encoding: 'utf8' })).to.equal('');
  });

  it('the Changes view lists the new file all added, and offers the branch scope a worktree has', async () => {
    await page.getByRole('button', { name: /^Changes/ }).click();
    const files = changes().getByRole('listbox', { name: 'Changed files' });
    await files.getByRole('option', { name: /notes\.md/ }).waitFor(WAIT);
    expect(await files.getByRole('option', { name: /notes\.md/ }).textContent()).to.equal('notes.mdA +3 −0');
    const lines = changes().locator('.diff-line');
    expect(await lines.evaluateAll((rows) => rows.map((row) => row.className.split(' ').at(-1)))).to.deep.equal(['add', 'add', 'add']);
    expect(await changes().getByRole('radio', { name: 'Branch' }).count()).to.equal(1);
    await changes().getByRole('radio', { name: 'Branch' }).check();
    await files.getByRole('option', { name: /notes\.md/ }).waitFor(WAIT);
    await changes().getByRole('radio', { name: 'Uncommitted' }).check();
    await files.getByRole('option', { name: /notes\.md/ }).waitFor(WAIT);
  });

  it('a comment written on a line reaches the model with the next prompt, and the transcript shows it as a card', async () => {
    await changes().getByRole('option', { name: 'Added 2: Run npm test first.' }).click();
    await changes().getByRole('textbox', { name: 'Comment on notes.md:2' }).fill('Say why the tests come first.');
    await changes().getByRole('button', { name: 'Add comment' }).click();
    await page.getByRole('list', { name: 'Review comments to send' }).getByText('notes.md:2').waitFor(WAIT);
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Address the review');
    await page.getByRole('button', { name: 'Send' }).click();
    await log().getByText('Done as asked.').waitFor(WAIT);
    const received = model.requests.map(lastUserText).find((text) => text.includes('Address the review'));
    expect(received).to.include('Say why the tests come first.').and.include('notes.md');
    const card = log().getByRole('region', { name: 'Review comments' });
    expect(await card.locator('.review-where').textContent()).to.equal('notes.md:2');
    expect(await card.locator('.review-snippet').textContent()).to.equal('Run npm test first.');
    expect(await card.locator('.review-text').textContent()).to.equal('Say why the tests come first.');
    expect(await page.getByRole('list', { name: 'Review comments to send' }).count()).to.equal(0);
    await shot('changes-live-card');
  });
});
