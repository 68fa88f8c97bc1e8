import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { scriptByPrompt, startFakeModelServer, type FakeModelServer } from '../helpers/fakes/modelServer';
import { eventually } from '../helpers/server/eventually';
import { npmStart, type StartedProcess } from '../helpers/server/process';
import { openSse } from '../helpers/server/sse';

const README = readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
/** The README's own default URL: the tour names it, the test puts the `listening on` URL in its place. */
const DEFAULT_URL = 'http://127.0.0.1:8787';

/** The first fenced block of `language` after the heading `## <heading>`, as written. */
function readmeBlock(heading: string, language: string): string {
  const section = README.slice(README.indexOf(`\n## ${heading}\n`));
  const match = new RegExp('```' + language + '\\n([\\s\\S]*?)```').exec(section);
  if (!match) throw new Error(`no ${language} block under "## ${heading}" in README.md`);
  return match[1]!;
}

/**
 * The tour's commands: a line at column 0 starts one, indented lines continue it (a `\` continuation or a
 * JSON body spanning lines), exactly as a shell reads the pasted block.
 */
function tourCommands(block: string): string[] {
  const commands: string[] = [];
  for (const line of block.split('\n').filter((text) => text.trim() !== '')) {
    if (/^\s/.test(line) && commands.length > 0) commands[commands.length - 1] += `\n${line}`;
    else commands.push(line);
  }
  return commands;
}

/** Runs the commands in one bash, as pasted: each one's output and exit status, in order. */
async function runInBash(
  commands: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Array<{ command: string; exit: number; output: string }>> {
  const script = commands.map((command) => `${command}\nprintf '\\n@@exit:%s\\n' "$?"`).join('\n');
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env, MODEL: '' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    child.stdout.on('data', (chunk) => (text += chunk));
    child.once('error', reject);
    child.once('exit', () => resolve(text));
  });
  const parts = output.split(/\n@@exit:(\d+)\n/);
  return commands.map((command, i) => ({ command, output: parts[2 * i]!.trim(), exit: Number(parts[2 * i + 1]) }));
}

/**
 * Issue 29: the README's first screen tells a newcomer how to get an agent running with a key or with a local
 * OpenAI-compatible model, and its curl tour is pasted whole into a shell. Both run here as written, against
 * `npm start` (a child process, any free port, a temp data dir); the suite's fake model server stands in for
 * the local one (Ollama, llama.cpp, LM Studio).
 */
describe('README: the first run with a local model, and the curl tour pasted whole (issue 29)', function () {
  this.timeout(120_000);
  let model: FakeModelServer;
  let home: string;
  let running: StartedProcess | undefined;
  let token: string;
  const call = async (pathname: string, body?: unknown) => {
    const response = await fetch(`${running!.url}/api/v1${pathname}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json() as Promise<any>;
  };

  before(async () => {
    model = await startFakeModelServer(scriptByPrompt({ 'Say hello': [{ kind: 'text', chunks: ['Hello from ', 'the local model.'] }] }));
    // The tour runs "in the repository's folder": here a folder of its own, with a README to find; the data dir
    // is the default one, under this folder's own XDG_DATA_HOME.
    home = mkdtempSync(path.join(os.tmpdir(), 'ats-readme-'));
    writeFileSync(path.join(home, 'README.md'), '# a project\n');
    const agentDir = path.join(home, 'pi-agent');
    mkdirSync(agentDir);
    const recipe = readmeBlock('First run', 'json');
    const local = JSON.parse(recipe).providers.local.baseUrl as string;
    writeFileSync(path.join(agentDir, 'models.json'), recipe.replace(local, model.baseUrl));
    running = await npmStart(['--port', '0'], {
      XDG_DATA_HOME: path.join(home, 'xdg'),
      ATS_AGENT_PROVIDERS: 'pi',
      PI_CODING_AGENT_DIR: agentDir,
      // In-process agents start in well under a second: the tour's 5 s of streaming then holds the first
      // prompt's rows even on a busy 2-core machine (an isolated agent process takes 3–6 s to start there).
      ATS_AGENT_ISOLATION: 'none',
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_OAUTH_TOKEN: '',
    });
    token = readFileSync(path.join(home, 'xdg', 'agent-thread-service', 'token'), 'utf8').trim();
  });
  after(async () => {
    await running?.stop();
    await model?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('the models.json recipe: the local model is listed first as usable, and a thread on it streams its answer', async () => {
    const recipe = JSON.parse(readmeBlock('First run', 'json')).providers.local;
    const modelId = `local/${recipe.models[0].id}`;
    const hostId = (await call('/hosts'))[0].id;
    const { models } = await call(`/hosts/${hostId}/models`);
    expect(models[0]).to.deep.include({ provider: 'pi', model: modelId, available: true });

    const project = await call('/projects', { name: 'local', source: { type: 'local_path', path: home, hostId } });
    const thread = await call('/threads', { projectId: project.id, provider: 'pi', model: modelId, title: 'hello', prompt: 'Say hello' });
    const stream = await openSse(`${running!.url}/api/v1/threads/${thread.id}/events/stream`, { authorization: `Bearer ${token}` });
    try {
      const events = await eventually(
        async () => {
          const seen = await stream.events(1);
          return seen.some((event) => event.data.type === 'turn/completed') ? seen : undefined;
        },
        'the turn on the local model',
        60_000,
      );
      const rows = events.map((event) => event.data);
      expect(rows.filter((row) => row.type === 'item/agentMessage/delta').map((row) => row.data.delta)).to.deep.equal([
        'Hello from ',
        'the local model.',
      ]);
      expect(rows.find((row) => row.type === 'turn/completed').data.status).to.equal('completed');
    } finally {
      stream.close();
    }
  });

  it('the tour, pasted whole without a key: every command exits 0 and prints what its comment says', async () => {
    const block = readmeBlock('Five minutes with curl', 'sh');
    expect(block).to.contain(DEFAULT_URL);
    const results = await runInBash(tourCommands(block.replaceAll(DEFAULT_URL, running!.url)), home, {
      XDG_DATA_HOME: path.join(home, 'xdg'),
    });
    if (results.some((result) => result.exit !== 0)) console.log(results);
    for (const { command, exit } of results) expect(exit, command).to.equal(0);
    const outputOf = (fragment: string) => results.find((result) => result.command.includes(fragment))!.output;

    // quick-open: scores, matched positions
    const hits = JSON.parse(outputOf('/paths?query=readme'));
    expect(hits.paths[0]).to.deep.include({ path: 'README.md' });
    expect(hits.paths[0].score).to.be.greaterThan(0);
    expect(hits.paths[0].positions).to.have.length(6);
    // 5 s of live rows (SSE, id: = seq), then curl stops: the prompt and its one failure
    const stream = outputOf('/events/stream');
    expect(stream).to.match(/^id: 1$/m);
    expect(stream).to.contain('"type":"userMessage"').and.contain('"status":"failed"');
    // the same rows, paged: the prompt, then one failed turn saying which key to set
    const rows = JSON.parse(outputOf('/events?afterSeq=0'));
    expect(rows.map((row: { seq: number }) => row.seq)).to.deep.equal([1, 2, 3, 4]);
    expect(rows[1].data.item.content).to.deep.equal([{ type: 'text', text: 'What does this repo do?' }]);
    expect(rows[3].data).to.deep.include({ status: 'failed' });
    expect(rows[3].data.error.message).to.contain('ANTHROPIC_API_KEY').and.contain('models.json');
    // without a key 502 agent_failed
    expect(JSON.parse(outputOf('/messages'))).to.deep.include({ status: 502, code: 'agent_failed' });
    // seqs [] when no turn runs (no key)
    const stop = JSON.parse(outputOf('/stop'));
    expect(stop).to.deep.equal({ threadId: rows[0].threadId, seqs: [] });
  });
});
