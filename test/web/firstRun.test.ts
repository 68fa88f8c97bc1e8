import { expect } from 'chai';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../helpers/fakes/modelServer';
import { eventually } from '../helpers/server/eventually';
import { createPiSandbox, FAKE_MODEL, type PiSandbox } from '../providers/pi/piSandbox';
import { ARTIFACTS, requireBrowser } from './browser';
import { startService, type StartedService } from './startedService';

const WAIT = { timeout: 60_000 };
const KEYLESS_MODEL = 'anthropic/claude-sonnet-4-5';

/**
 * Issue 29 in Chromium through `npm start`: a thread whose model has no key shows its prompt, one error in
 * place and a Retry (a retry refused again updates that one error), the list marks it; and the context meter
 * keeps its fill after Stop instead of dropping to 0 %.
 */
describe('the page on a first run: a prompt the agent could not take, and the context meter after Stop (issue 29)', function () {
  this.timeout(180_000);
  let model: FakeModelServer;
  let sandbox: PiSandbox;
  let service: StartedService | undefined;
  let page: Page;
  let keylessId: string;
  let fakeId: string;

  before(async function () {
    requireBrowser(this);
    model = await startFakeModelServer(
      scriptByPrompt({
        'Say hello': [{ kind: 'text', chunks: ['Hello ', 'there.'] }],
        'Think slowly': [{ kind: 'slow', chunks: ['Thinking hard'], rest: [' never shown.'] }],
      }),
    );
    sandbox = createPiSandbox({ baseUrl: model.baseUrl });
    service = await startService({
      ATS_AGENT_PROVIDERS: 'pi',
      ATS_TURN_GRACE_MS: '500',
      PI_CODING_AGENT_DIR: sandbox.agentDir,
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_OAUTH_TOKEN: '',
    });
    const project = await service.api('/projects', {
      name: 'first run',
      source: { type: 'local_path', path: sandbox.projectDir, hostId: service.hostId },
    });
    const thread = (title: string, modelId: string, prompt?: string) =>
      service!.api('/threads', { projectId: project.id, provider: 'pi', model: modelId, title, ...(prompt ? { prompt } : {}) });
    keylessId = (await thread('no key here', KEYLESS_MODEL, 'What does this repo do?')).id;
    fakeId = (await thread('a local model', FAKE_MODEL)).id;
    ({ page } = await service.signIn());
  });
  after(async () => {
    await service?.stop();
    await model?.close();
    sandbox?.remove();
  });

  const shot = (name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: false });
  const log = () => page.getByRole('log');
  const open = async (threadId: string) => {
    await page.evaluate((hash) => (location.hash = hash), `#/threads/${threadId}`);
    await page.getByRole('textbox', { name: 'Prompt' }).waitFor(WAIT);
  };

  it('a keyless thread shows the prompt, one error saying what to set, and Retry; the list marks it', async () => {
    await open(keylessId);
    await log().getByText('What does this repo do?').waitFor(WAIT);
    const refused = log().locator('.refused-prompt');
    await refused.waitFor(WAIT);
    expect(await refused.count()).to.equal(1);
    expect(await refused.textContent())
      .to.contain('ANTHROPIC_API_KEY')
      .and.contain('models.json');
    // Said once on the whole page: no header box, no note under Send, no second box.
    expect(await page.getByText(/No API key/).count()).to.equal(1);
    expect(await page.getByText(/could not start/).count()).to.equal(0);
    await page.getByRole('link', { name: /no key here.*last turn failed/ }).waitFor(WAIT);
    await shot('29-keyless');
  });

  it('Retry sends the same prompt again; refused again, the one error is updated in place, not repeated', async () => {
    await log().getByRole('button', { name: 'Retry' }).click();
    await log().getByText('tried 2 times', { exact: false }).waitFor(WAIT);
    expect(await log().locator('.refused-prompt').count()).to.equal(1);
    expect(await log().getByText('What does this repo do?').count()).to.equal(1);
    expect(await page.getByText(/No API key/).count()).to.equal(1);
    // Sent from the box, another prompt is one more entry; nothing is said under Send.
    await page.getByRole('textbox', { name: 'Prompt' }).fill('And the tests?');
    await page.getByRole('button', { name: 'Send' }).click();
    await log().getByText('And the tests?').waitFor(WAIT);
    await eventually(async () => ((await log().locator('.refused-prompt').count()) === 2 ? true : undefined), 'a second refused prompt');
    expect(await page.locator('.composer-note').textContent()).to.equal('');
    expect(await page.getByRole('textbox', { name: 'Prompt' }).inputValue()).to.equal('');
    await shot('29-keyless-retried');
  });

  it('the context meter keeps its fill after Stop (estimated), instead of dropping to 0 %', async () => {
    await open(fakeId);
    const prompt = page.getByRole('textbox', { name: 'Prompt' });
    await prompt.fill('Say hello');
    await page.getByRole('button', { name: 'Send' }).click();
    await log().getByText('Completed', { exact: true }).waitFor(WAIT);
    const meter = page.locator('#context-meter');
    await meter.waitFor(WAIT);
    const before = Number(await meter.getAttribute('value'));
    expect(before).to.be.greaterThan(0);

    await prompt.fill('Think slowly');
    await page.getByRole('button', { name: 'Send' }).click();
    await log().getByText('Thinking hard').waitFor(WAIT);
    await page.getByRole('button', { name: 'Stop' }).click();
    await log().getByText('Interrupted', { exact: true }).waitFor(WAIT);
    const after = await eventually(async () => {
      const text = (await page.locator('.usage .context').textContent()) ?? '';
      return text.includes('estimated') ? text : undefined;
    }, 'the meter after the interrupted turn');
    expect(Number(await meter.getAttribute('value'))).to.be.greaterThan(before);
    expect(after).not.to.match(/\(0\.0%/);
    await shot('29-meter-after-stop');
  });
});
