import { BUILT_IN_ACP_AGENTS, createAcpProvider } from '../../../src/daemon/providers/acp';
import type { AgentScripts, FakeAgentModel } from '../fakes/agentModel';
import { startFakeAnthropicServer } from '../fakes/anthropicServer';
import { startFakeGeminiServer } from '../fakes/geminiServer';
import { startFakeResponsesServer } from '../fakes/responsesServer';
import { claudeAgentEnv, codexAgentEnv, geminiAgentEnv, TEST_AGENTS_BIN, type TestAgent } from './acpAgents';

/** How a test runs one real ACP agent offline: the fake model API it talks to, and its isolated environment. */
export interface RealAgent {
  agent: TestAgent;
  /** The adapter and the fake it talks to, for suite titles. */
  adapter: string;
  startModel: (scripts: AgentScripts) => Promise<FakeAgentModel>;
  envOf: (home: string, modelOrigin: string) => Record<string, string>;
}

/** The three real agents every real-agent suite runs, each against its own fake model server on loopback. */
export const REAL_AGENTS: Record<TestAgent, RealAgent> = {
  claude: {
    agent: 'claude',
    adapter: 'claude-agent-acp → fake Anthropic Messages API',
    startModel: startFakeAnthropicServer,
    envOf: claudeAgentEnv,
  },
  codex: {
    agent: 'codex',
    adapter: 'codex-acp → fake OpenAI Responses API',
    startModel: startFakeResponsesServer,
    envOf: codexAgentEnv,
  },
  gemini: { agent: 'gemini', adapter: 'gemini --acp → fake Gemini API', startModel: startFakeGeminiServer, envOf: geminiAgentEnv },
};

/** The service's provider of a real agent: its built-in spec, run from test/agents offline with its home in `home`. */
export function realAgentProvider(agent: TestAgent, home: string, modelOrigin: string, log: (message: string) => void) {
  return createAcpProvider({
    name: agent,
    spec: BUILT_IN_ACP_AGENTS[agent],
    env: REAL_AGENTS[agent].envOf(home, modelOrigin),
    binDirs: [TEST_AGENTS_BIN],
    log,
  });
}
