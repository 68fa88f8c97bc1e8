import { expect } from 'chai';
import os from 'node:os';
import { createPiProvider } from '../../../src/daemon/providers/pi';
import { explainPiError } from '../../../src/daemon/providers/pi/explainPiError';
import { createFrameLog, isMethod } from './frameLog';
import { createPiSandbox } from './piSandbox';

/** Issue 12: pi's errors say "Use /login" and name files inside the server's node_modules; ours must not. */
describe("pi provider errors are said in the service's terms", function () {
  this.timeout(20_000);
  const saved: Record<string, string | undefined> = {};
  const KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_OAUTH_TOKEN'];
  before(() => KEY_VARIABLES.forEach((name) => ((saved[name] = process.env[name]), delete process.env[name])));
  after(() => KEY_VARIABLES.forEach((name) => (saved[name] === undefined ? delete process.env[name] : (process.env[name] = saved[name]))));

  it("a prompt without an API key: the rejection and the settle name the env var and the agent dir's auth.json, no /login, no installation path", async () => {
    const sandbox = createPiSandbox({ baseUrl: 'http://127.0.0.1:9/v1' });
    const frames = createFrameLog();
    const thread = await createPiProvider({ agentDir: sandbox.agentDir, log: () => undefined }).openThread({
      threadId: 'thr_nokey',
      cwd: sandbox.projectDir,
      model: 'anthropic/claude-sonnet-4-5',
      dataDir: sandbox.dataDir,
      emit: frames.emit,
    });
    try {
      const refusal = await thread.prompt('hello').then(
        () => undefined,
        (error: Error) => error.message,
      );
      const settled = await frames.waitFor(isMethod('pi/prompt/settled'));
      expect(settled.params.error!.message).to.equal(refusal);
      const agentDir = sandbox.agentDir.startsWith(os.homedir()) ? `~${sandbox.agentDir.slice(os.homedir().length)}` : sandbox.agentDir;
      expect(refusal).to.equal(
        'No API key for the "anthropic" models on this host. Set ANTHROPIC_API_KEY in the environment of the host daemon ' +
          `(npm start or npm run daemon), or add {"anthropic": {"type": "api_key", "key": "…"}} to ${agentDir}/auth.json on that host ` +
          "(pi's agent dir; PI_CODING_AGENT_DIR moves it), then send the prompt again. " +
          `No key? Add a local OpenAI-compatible model (Ollama, llama.cpp, LM Studio) to ${agentDir}/models.json (README "First run") and pick it.`,
      );
      expect(refusal).not.to.match(/\/login|node_modules/);
    } finally {
      await thread.dispose();
      sandbox.remove();
    }
  });

  it('other pi guidance keeps its first words and drops the TUI commands and doc paths', () => {
    const pi =
      'No model selected.\n\nUse /login to log into a provider via OAuth or API key. See:\n  /srv/ats/node_modules/@mariozechner/pi-coding-agent/docs/providers.md\n  /srv/ats/node_modules/@mariozechner/pi-coding-agent/docs/models.md\n\nThen use /model to select a model.';
    expect(explainPiError(new Error(pi), { agentDir: '/etc/pi', provider: 'x' }).message).to.equal('No model selected.');
  });
});
