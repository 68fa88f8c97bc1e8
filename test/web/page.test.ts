import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { lastUserText, scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../helpers/fakes/modelServer';
import { eventually } from '../helpers/server/eventually';
import { npmStart, type StartedProcess } from '../helpers/server/process';
import { createPiSandbox, TRIGGER_EXTENSION, type PiSandbox } from '../providers/pi/piSandbox';
import { ARTIFACTS, launchBrowser, requireBrowser, type Browser } from './browser';

const WAIT = { timeout: 60_000 };

/**
 * Issue 15 end to end, as a person would use it: `npm start` (a child process, any free port, a temp data
 * dir), the printed URL opened in Debian's Chromium, a project made with the folder picker, quick-open, and a
 * thread run by the real pi SDK against the fake model server, streaming live through a reload, a stop, and
 * a turn the agent starts by itself. Screenshots go to test-artifacts/web/.
 */
describe('the web page in a real browser: sign in, project, quick-open, a live thread, reload, stop, an agent-started turn', function () {
  this.timeout(180_000);
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let dataDir: string;
  let running: StartedProcess | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let signInUrl: string;

  before(async function () {
    requireBrowser(this);
    model = await startFakeModelServer(
      scriptByPrompt({
        'Explain the repo': [
          {
            kind: 'slow',
            chunks: ['Streaming **bold** start.', ' Then <img src=x onerror="window.__injected=1"> as text.'],
            rest: [' And the end.'],
          },
        ],
        'Run echo': [
          { kind: 'toolCall', toolName: 'bash', args: { command: 'echo web-e2e-output' } },
          { kind: 'text', chunks: ['Ran it.'] },
        ],
        'Edit the notes': [
          {
            kind: 'toolCall',
            toolName: 'edit',
            args: { path: 'notes.txt', edits: [{ oldText: 'second line', newText: 'second line, edited' }] },
          },
          { kind: 'toolCall', toolName: 'read', args: { path: 'notes.txt' } },
          { kind: 'text', chunks: ['Edited and read.'] },
        ],
        'Think slowly': [{ kind: 'slow', chunks: ['Thinking hard'], rest: [' never shown.'] }],
        'Check the build': [{ kind: 'slow', chunks: ['Build '], rest: ['checked.'] }],
      }),
    );
    sandbox = createPiSandbox({ baseUrl: model.baseUrl, extensions: { 'trigger.ts': TRIGGER_EXTENSION } });
    mkdirSync(path.join(sandbox.projectDir, 'src', 'widgets'), { recursive: true });
    writeFileSync(
      path.join(sandbox.projectDir, 'src', 'widgets', 'fancyWidget.ts'),
      'export const answer: number = 42;\nexport function widget(name: string): string {\n  return `hello ${name}`;\n}\n',
    );
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'ats-web-'));
    mkdirSync(ARTIFACTS, { recursive: true });
    running = await npmStart(['--port', '0', '--data-dir', dataDir], {
      ATS_AGENT_PROVIDERS: 'pi',
      ATS_TURN_GRACE_MS: '500',
      PI_CODING_AGENT_DIR: sandbox.agentDir,
    });
    const started = running;
    signInUrl = await eventually(
      () => started.lines.map((line) => /^open (http:\/\/\S+#token=\S+)$/.exec(line)?.[1]).find(Boolean),
      'the sign-in URL on stdout',
      30_000,
    );
    browser = await launchBrowser();
    page = await browser.context.newPage();
  });
  after(async () => {
    await browser?.close();
    await running?.stop();
    await model?.close();
    sandbox?.remove();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
  const log = () => page.getByRole('log');

  // A step that waits in vain says only what it waited for: this says what the model was asked, what the
  // server logged and what the page showed, so a failure in CI can be explained without running it again.
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    await shot('failed').catch(() => undefined);
    const asked = model.requests.slice(-4).map((request) => `${request.messages.length} messages, last user: ${lastUserText(request)}`);
    const shown = await log()
      .innerText({ timeout: 1_000 })
      .catch(() => '(no log)');
    console.log(
      [
        'the model was last asked:',
        ...asked,
        'the server last logged:',
        ...(running?.lines.slice(-15) ?? []),
        'the page shows (end):',
        shown.slice(-600),
      ].join('\n  '),
    );
  });

  it('opening the printed URL signs in with an HttpOnly SameSite=Strict cookie and takes the token out of the address bar', async () => {
    expect(signInUrl).to.match(/\/#token=/);
    await page.goto(signInUrl);
    await page.getByRole('heading', { name: 'Hosts' }).waitFor(WAIT);
    await page.locator('.hosts').getByText('online').waitFor(WAIT);
    expect(page.url()).not.to.contain('token');
    const cookies = await browser!.context.cookies();
    expect(cookies).to.have.length.greaterThan(0);
    expect(cookies.every((cookie) => cookie.httpOnly && cookie.sameSite === 'Strict')).to.equal(true);
    await shot('01-signed-in');
  });

  it('creates a project from a folder chosen with the folder picker', async () => {
    await page.getByRole('link', { name: 'New project' }).click();
    const picker = page.getByRole('group', { name: 'Pick on the host' });
    await picker.waitFor(WAIT);
    const segments = sandbox.projectDir.split('/').filter(Boolean);
    const folder = (name: string) => picker.getByRole('listitem').filter({ has: page.getByRole('button', { name, exact: true }) });
    for (const segment of segments.slice(0, -1)) await folder(segment).getByRole('button', { name: segment, exact: true }).click();
    await folder(segments.at(-1)!).getByRole('button', { name: 'Choose', exact: true }).click();
    // "Folder" names the path field alone: a test or a screen reader finds it by that label.
    expect(await page.getByLabel('Folder').count()).to.equal(1);
    expect(await page.getByLabel('Folder').inputValue()).to.equal(sandbox.projectDir);
    await page.getByLabel('Name').fill('web demo');
    await shot('02-new-project');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'New thread in web demo' }).waitFor(WAIT);
    await page.getByRole('region', { name: 'Project web demo' }).waitFor(WAIT);
  });

  it('quick-open (Ctrl+P) finds a file by a few letters, marks the matched letters and previews it highlighted', async () => {
    await page.keyboard.press('Control+P');
    const dialog = page.getByRole('dialog', { name: 'Quick open' });
    await dialog.getByRole('combobox').fill('fwid');
    const first = dialog.getByRole('listbox').getByRole('option').first();
    await first
      .getByText('fancyWidget.ts')
      .waitFor(WAIT)
      .catch(() => undefined);
    await eventually(
      async () => ((await first.textContent())?.includes('fancyWidget.ts') ? true : undefined),
      'fancyWidget.ts listed first',
      30_000,
    );
    const marked = await first.locator('mark').allTextContents();
    expect(marked.join('').toLowerCase()).to.equal('fwid');
    await shot('03-quick-open');
    await dialog.getByRole('combobox').press('ArrowDown');
    await dialog.getByRole('combobox').press('ArrowUp');
    await dialog.getByRole('combobox').press('Enter');
    const preview = page.getByRole('region', { name: 'File preview' });
    await preview.getByText('export const answer').waitFor(WAIT);
    expect(await preview.locator('.hljs-keyword').count()).to.be.greaterThan(0);
    expect(await page.getByRole('dialog', { name: 'Quick open' }).count()).to.equal(0);
    await shot('04-file-preview');
    await preview.getByRole('button', { name: 'Close preview' }).click();
  });

  it('a thread streams live from the real pi SDK, survives a reload mid-stream with every text once, and completes', async () => {
    await page.getByLabel('Title').fill('Explain the repo');
    // The model comes from the host's catalog: pi's models.json in the agent dir, a model this host can run.
    await page.getByLabel('Model', { exact: true }).fill('fake-model');
    await page
      .getByRole('listbox', { name: 'Models' })
      .getByRole('option', { name: /fake-model/ })
      .first()
      .click();
    await page.getByLabel('First prompt (optional)').fill('Explain the repo');
    await page.getByRole('button', { name: 'Create thread' }).click();
    await page.getByRole('link', { name: /Explain the repo/ }).waitFor(WAIT);
    await log().getByText('Streaming bold start.').waitFor(WAIT);
    await log().getByText('Running…').waitFor(WAIT);
    expect(await log().locator('strong').allTextContents()).to.deep.equal(['bold']);
    await page.getByRole('link', { name: /Explain the repo.*active/ }).waitFor(WAIT);
    await shot('05-streaming');

    await page.reload();
    await log().getByText('Streaming bold start.').waitFor(WAIT);
    model.releaseSlow();
    await log().getByText('Completed', { exact: true }).waitFor(WAIT);
    const text = (await log().textContent()) ?? '';
    expect(count(text, 'Streaming bold start.')).to.equal(1);
    expect(count(text, 'And the end.')).to.equal(1);
    expect(count(text, 'Explain the repo')).to.equal(1);
    // The model's HTML is text, never markup.
    expect(text).to.contain('<img src=x onerror="window.__injected=1">');
    expect(await log().locator('img').count()).to.equal(0);
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).to.equal(undefined);
    await page.getByRole('link', { name: /Explain the repo.*idle/ }).waitFor(WAIT);
    await log()
      .getByText(/Tokens: \d+ total/)
      .or(page.getByText(/Tokens: \d+ total/))
      .first()
      .waitFor(WAIT);
    await page.getByText('Context window').waitFor(WAIT);
    await shot('06-completed');
  });

  it('a command runs with its output shown, and the prompt box inserts a path after @', async () => {
    const prompt = page.getByRole('textbox', { name: 'Prompt' });
    await prompt.click();
    await prompt.pressSequentially('Run echo and look at @');
    const dialog = page.getByRole('dialog', { name: 'Quick open' });
    await dialog.getByRole('combobox').fill('notes');
    await eventually(
      async () => ((await dialog.getByRole('option').first().textContent())?.includes('notes.txt') ? true : undefined),
      'notes.txt listed',
      30_000,
    );
    await dialog.getByRole('combobox').press('Enter');
    expect(await prompt.inputValue()).to.equal('Run echo and look at @notes.txt ');
    await page.getByRole('button', { name: 'Send' }).click();
    await log().getByLabel('Command output').filter({ hasText: 'web-e2e-output' }).waitFor(WAIT);
    await log().getByText('Ran it.').waitFor(WAIT);
    await log().getByText('Completed', { exact: true }).nth(1).waitFor(WAIT); // turn/completed follows the last item
    await shot('07-command');
  });

  it('a file change shows its diff; other tool calls are collapsed until opened', async () => {
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Edit the notes');
    await page.getByRole('button', { name: 'Send' }).click();
    await log().getByText('Edited and read.').waitFor(WAIT);
    const change = log().locator('details.file-change');
    expect(await change.locator('summary').textContent())
      .to.contain('File edited')
      .and.contain('notes.txt');
    expect(await change.locator('.diff .add').allTextContents()).to.satisfy((lines: string[]) =>
      lines.some((line) => line.includes('second line, edited')),
    );
    const tool = log().locator('details.tool-call');
    expect(await tool.getAttribute('open')).to.equal(null);
    await tool.locator('summary').click();
    await tool.getByText('Arguments').waitFor(WAIT);
    await log().getByText('Completed', { exact: true }).nth(2).waitFor(WAIT); // turn/completed follows the last item
    await shot('08-file-change');
  });

  it('Stop ends a streaming turn as "Interrupted"', async () => {
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Think slowly');
    await page.getByRole('button', { name: 'Send' }).click();
    await log().getByText('Thinking hard').waitFor(WAIT);
    await page.getByRole('button', { name: 'Stop' }).click();
    await log().getByText('Interrupted', { exact: true }).waitFor(WAIT);
    await shot('09-interrupted');
  });

  it('a turn the agent starts by itself appears live, labelled "Started by the agent"', async () => {
    sandbox.triggerAgentRun('Check the build, please.');
    await log().getByText('Started by the agent').waitFor(WAIT);
    await log().getByText('Build', { exact: true }).waitFor(WAIT);
    await shot('10-agent-started');
    model.releaseSlow();
    await log().getByText('Build checked.').waitFor(WAIT);
    await log().getByText('Completed', { exact: true }).nth(3).waitFor(WAIT); // turn/completed follows the last item
    expect(await log().getByText('Check the build, please.').count()).to.equal(1);
    await shot('11-agent-completed');
  });

  it('reads in a narrow window', async () => {
    await page.setViewportSize({ width: 420, height: 900 });
    await log().getByText('Build checked.').waitFor(WAIT);
    await shot('12-narrow');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).to.be.at.most(0);
  });
});

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
