import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The real ACP agents the tests drive (claude-agent-acp, codex-acp, Gemini CLI), installed apart from the
 * service's own dependencies by `npm run agents:install` into test/agents (~940 MB). A suite that needs them is skipped with
 * one line saying so when they are missing, unless `ATS_REQUIRE_AGENTS=1` (CI), which makes that a failure.
 */
export const TEST_AGENTS_DIR = path.resolve(__dirname, '..', '..', 'agents');
export const TEST_AGENTS_BIN = path.join(TEST_AGENTS_DIR, 'node_modules', '.bin');

export type TestAgent = 'claude' | 'codex' | 'gemini';

const BIN_OF: Record<TestAgent, string> = { claude: 'claude-agent-acp', codex: 'codex-acp', gemini: 'gemini' };

/** What each agent's command needs after it to speak ACP on stdio (BUILT_IN_ACP_AGENTS' args). */
export const ARGS_OF: Record<TestAgent, string[]> = { claude: [], codex: [], gemini: ['--acp'] };

export function testAgentBin(agent: TestAgent): string {
  return path.join(TEST_AGENTS_BIN, BIN_OF[agent]);
}

let saidSo = false;

/** `needs`: the agents the suite runs (all three unless it says), so a suite of one agent runs when that one is there. */
export function describeWithAgents(title: string, body: (this: Mocha.Suite) => void): void;
export function describeWithAgents(title: string, needs: readonly TestAgent[], body: (this: Mocha.Suite) => void): void;
export function describeWithAgents(
  title: string,
  ...rest: [(this: Mocha.Suite) => void] | [readonly TestAgent[], (this: Mocha.Suite) => void]
): void {
  const [needs, body] = rest.length === 1 ? [undefined, rest[0]] : rest;
  describe(title, function () {
    before(function () {
      const missing = (needs ?? (Object.keys(BIN_OF) as TestAgent[])).filter((agent) => !existsSync(testAgentBin(agent)));
      if (missing.length === 0) return;
      const reason = `${missing.map((agent) => BIN_OF[agent]).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed in test/agents (run npm run agents:install)`;
      if (process.env.ATS_REQUIRE_AGENTS === '1') throw new Error(`the ACP agents are required (ATS_REQUIRE_AGENTS=1) but ${reason}`);
      if (!saidSo) console.log(`  (${reason}, so the real-agent tests are skipped)`);
      saidSo = true;
      this.skip();
    });
    body.call(this);
  });
}

/**
 * Every variable an agent process may see: PATH and the locale, so nothing of the developer's leaks in. Its
 * TMPDIR is a folder in the fresh HOME: both agents leave sockets and sandbox mounts in the temp folder.
 */
function baseEnv(home: string): Record<string, string> {
  const tmp = path.join(home, 'tmp');
  mkdirSync(tmp, { recursive: true });
  const env: Record<string, string> = { HOME: home, TMPDIR: tmp, PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1' };
  for (const name of ['LANG', 'LC_ALL']) if (process.env[name] !== undefined) env[name] = process.env[name]!;
  return env;
}

/**
 * Claude Code offline: a fresh HOME, the fake Messages API and a made-up key; the DISABLE_* switches stop it
 * from calling Anthropic's own hosts (seven times a run without them).
 */
export function claudeAgentEnv(home: string, modelOrigin: string): Record<string, string> {
  return {
    ...baseEnv(home),
    ANTHROPIC_BASE_URL: modelOrigin,
    ANTHROPIC_API_KEY: 'sk-ant-fake-key',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION: 'false',
  };
}

/** The model the Codex tests pin: codex-acp's first listed models send no tools to a fake. */
export const CODEX_TEST_MODEL = 'gpt-5.5';
const CODEX_KEY_VAR = 'ATS_FAKE_OPENAI_KEY';

/**
 * Codex offline: a CODEX_HOME whose config.toml names the fake Responses API as a custom provider, and turns
 * off the plugin and app features (which otherwise call GitHub and the ChatGPT backend).
 */
export function codexAgentEnv(home: string, modelOrigin: string): Record<string, string> {
  const codexHome = path.join(home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    path.join(codexHome, 'config.toml'),
    [
      `model = "${CODEX_TEST_MODEL}"`,
      'model_provider = "fake"',
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${modelOrigin}/v1"`,
      'wire_api = "responses"',
      `env_key = "${CODEX_KEY_VAR}"`,
      '',
      '[features]',
      'plugins = false',
      'apps = false',
      '',
    ].join('\n'),
  );
  return { ...baseEnv(home), CODEX_HOME: codexHome, [CODEX_KEY_VAR]: 'sk-fake-key' };
}

/** Preloaded into Gemini CLI's Node processes: records (and refuses) every connection that leaves loopback. */
export const NET_GUARD = path.resolve(__dirname, 'netGuard.cjs');
/** The file, in the agent's HOME, where NET_GUARD writes each `host:port` the agent tried. */
export function netGuardLog(home: string): string {
  return path.join(home, 'net-guard.log');
}

/**
 * Gemini CLI offline: a fresh HOME whose `.gemini/settings.json` selects the API key (so no login is asked),
 * turns off usage statistics (Clearcut, which calls play.googleapis.com three times a session without it),
 * telemetry, auto-update and its notice, and its pseudo-terminal for commands; a made-up key with
 * `GOOGLE_GEMINI_BASE_URL` pointing `@google/genai` at the fake. The thread's folder is trusted for the run
 * (`GEMINI_CLI_TRUST_WORKSPACE`), as `--skip-trust` would: an untrusted folder refuses `autoEdit` and `yolo`.
 * NET_GUARD records any connection off loopback in netGuardLog(home).
 */
export function geminiAgentEnv(home: string, modelOrigin: string): Record<string, string> {
  const geminiDir = path.join(home, '.gemini');
  mkdirSync(geminiDir, { recursive: true });
  writeFileSync(
    path.join(geminiDir, 'settings.json'),
    `${JSON.stringify(
      {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
        // In its pseudo-terminal (the default) Gemini CLI 0.61 sends a command's output to the model only, never
        // over ACP (its result is terminal cells, which its ACP side drops); with plain pipes it sends the text.
        tools: { shell: { enableInteractiveShell: false } },
      },
      null,
      2,
    )}\n`,
  );
  return {
    ...baseEnv(home),
    GEMINI_API_KEY: 'fake-gemini-key',
    GOOGLE_GEMINI_BASE_URL: modelOrigin,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    NODE_OPTIONS: `--require ${NET_GUARD}`,
    ATS_NET_GUARD_LOG: netGuardLog(home),
  };
}
