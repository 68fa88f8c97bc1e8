/**
 * npm run bench:agent-start — each installed ACP agent on its own (no service), against its fake model on
 * loopback, BENCH_AGENT_RUNS times (3): spawn → `initialize` → `session/new` answered, one short prompt →
 * its answer, and the RSS of the agent's process tree after that answer (docs/agents.md "Tests and
 * measurements"). BENCH_AGENTS picks agents (claude,codex,gemini). Needs npm run agents:install.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { BUILT_IN_ACP_AGENTS } from '../src/daemon/providers/acp';
import { ARGS_OF, claudeAgentEnv, codexAgentEnv, geminiAgentEnv, testAgentBin, type TestAgent } from '../test/helpers/agents/acpAgents';
import { startAcpTestClient } from '../test/helpers/agents/acpTestClient';
import { childrenOf, commandLineOf } from '../test/helpers/agents/processTree';
import type { AgentScripts, FakeAgentModel } from '../test/helpers/fakes/agentModel';
import { startFakeAnthropicServer } from '../test/helpers/fakes/anthropicServer';
import { startFakeGeminiServer } from '../test/helpers/fakes/geminiServer';
import { startFakeResponsesServer } from '../test/helpers/fakes/responsesServer';
import { treeRssMb } from './lib/processRss';

const RUNS = Number(process.env.BENCH_AGENT_RUNS ?? 3);
const SCRIPTS: AgentScripts = { 'Say hello': [{ kind: 'text', chunks: ['Hello', ' there'] }] };
const AGENTS: Record<TestAgent, { startModel: (scripts: AgentScripts) => Promise<FakeAgentModel>; envOf: typeof claudeAgentEnv }> = {
  claude: { startModel: startFakeAnthropicServer, envOf: claudeAgentEnv },
  codex: { startModel: startFakeResponsesServer, envOf: codexAgentEnv },
  gemini: { startModel: startFakeGeminiServer, envOf: geminiAgentEnv },
};

async function runOnce(agent: TestAgent, model: FakeAgentModel): Promise<{ start: number; prompt: number; rssMb: number }> {
  const root = mkdtempSync(path.join(os.tmpdir(), `ats-bench-start-${agent}-`));
  const cwd = path.join(root, 'work');
  mkdirSync(cwd);
  const started = performance.now();
  // The agent's environment as the service gives it: the built-in spec's env on top (createAcpProvider).
  const client = startAcpTestClient(testAgentBin(agent), {
    cwd,
    env: { ...AGENTS[agent].envOf(path.join(root, 'home'), model.origin), ...BUILT_IN_ACP_AGENTS[agent].env },
    args: ARGS_OF[agent],
  });
  try {
    await client.connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const { sessionId } = await client.connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    const start = performance.now() - started;
    const asked = performance.now();
    await client.connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'Say hello' }] });
    const prompt = performance.now() - asked;
    const pid = childrenOf(process.pid).find((child) => commandLineOf(child).includes(path.basename(testAgentBin(agent))));
    return { start, prompt, rssMb: pid === undefined ? NaN : treeRssMb(pid) };
  } finally {
    await client.close();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const agents = (process.env.BENCH_AGENTS ?? 'claude,codex,gemini').split(',') as TestAgent[];
  for (const agent of agents) {
    if (!existsSync(testAgentBin(agent))) {
      console.log(`${agent}: not installed (npm run agents:install)`);
      continue;
    }
    const model = await AGENTS[agent].startModel(SCRIPTS);
    try {
      for (let run = 1; run <= RUNS; run++) {
        const { start, prompt, rssMb } = await runOnce(agent, model);
        console.log(
          `${agent.padEnd(7)} run ${run}: start ${(start / 1000).toFixed(1)} s, prompt → answer ${(prompt / 1000).toFixed(2)} s, RSS ${rssMb.toFixed(0)} MB (load ${os.loadavg()[0]!.toFixed(1)})`,
        );
      }
    } finally {
      await model.close();
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
