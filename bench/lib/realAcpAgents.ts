import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { BUILT_IN_ACP_AGENTS, createAcpProvider } from '../../src/daemon/providers/acp';
import { createIsolatedPiProvider } from '../../src/daemon/providerFactories';
import { childrenOf, commandLineOf } from '../../test/helpers/agents/processTree';
import {
  ARGS_OF,
  claudeAgentEnv,
  codexAgentEnv,
  geminiAgentEnv,
  testAgentBin,
  TEST_AGENTS_BIN,
  type TestAgent,
} from '../../test/helpers/agents/acpAgents';
import { startAcpTestClient } from '../../test/helpers/agents/acpTestClient';
import { startFakeAnthropicServer } from '../../test/helpers/fakes/anthropicServer';
import { startFakeGeminiServer } from '../../test/helpers/fakes/geminiServer';
import { scriptByPrompt, startFakeModelServer } from '../../test/helpers/fakes/modelServer';
import { startFakeResponsesServer } from '../../test/helpers/fakes/responsesServer';
import { createPiSandbox, FAKE_MODEL } from '../../test/providers/pi/piSandbox';
import { startBenchServer } from './acpBenchServer';
import { treeRssMb } from './processRss';

const SCRIPTS = { 'Say hello': [{ kind: 'text' as const, chunks: ['Hello', ' there'] }] };
const quiet = () => undefined;

/** The agent process below this one whose command line names `marker` (the top of that agent's tree). */
function agentPid(marker: string, root = process.pid): number | undefined {
  for (const child of childrenOf(root)) {
    if (commandLineOf(child).includes(marker)) return child;
    const below = agentPid(marker, child);
    if (below) return below;
  }
  return undefined;
}

/** An agent's own start, outside the service: spawn → initialize answered → session/new answered. */
async function ownStartMs(agent: TestAgent, cwd: string, env: Record<string, string>): Promise<{ initialize: number; session: number }> {
  const started = performance.now();
  const client = startAcpTestClient(testAgentBin(agent), { cwd, env, args: ARGS_OF[agent] });
  try {
    await client.connection.agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
    const initialize = performance.now() - started;
    await client.connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
    return { initialize, session: performance.now() - started };
  } finally {
    await client.close();
  }
}

/**
 * BENCH_ACP_REAL=1: a prompt on a Claude Code thread whose agent had stopped (its process group killed after a
 * first answer) → its first stored rows, and the RSS of each running agent's process tree after one answer.
 */
export async function measureRealAgents(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'ats-bench-real-acp-'));
  const claudeModel = await startFakeAnthropicServer(SCRIPTS);
  const codexModel = await startFakeResponsesServer(SCRIPTS);
  const geminiModel = await startFakeGeminiServer(SCRIPTS);
  const piModel = await startFakeModelServer(scriptByPrompt(SCRIPTS));
  const sandbox = createPiSandbox({ baseUrl: piModel.baseUrl });
  const claudeEnv = claudeAgentEnv(path.join(root, 'claude-home'), claudeModel.origin);
  const bench = await startBenchServer([
    createAcpProvider({ name: 'claude', spec: BUILT_IN_ACP_AGENTS.claude, env: claudeEnv, binDirs: [TEST_AGENTS_BIN], log: quiet }),
    createAcpProvider({
      name: 'codex',
      spec: BUILT_IN_ACP_AGENTS.codex,
      env: codexAgentEnv(path.join(root, 'codex-home'), codexModel.origin),
      binDirs: [TEST_AGENTS_BIN],
      log: quiet,
    }),
    createAcpProvider({
      name: 'gemini',
      spec: BUILT_IN_ACP_AGENTS.gemini,
      env: geminiAgentEnv(path.join(root, 'gemini-home'), geminiModel.origin),
      binDirs: [TEST_AGENTS_BIN],
      log: quiet,
    }),
    createIsolatedPiProvider({ agentDir: sandbox.agentDir }, quiet),
  ]);
  try {
    const rss: Array<[string, number]> = [];
    for (const [provider, model, marker] of [
      ['claude', 'default', 'claude-agent-acp'],
      ['codex', 'default', 'codex-acp'],
      ['gemini', 'default', 'gemini --acp'],
      ['pi', FAKE_MODEL, 'agentProcessMain'],
    ] as const) {
      const threadId = await bench.thread(sandbox.projectDir, provider, model);
      await bench.run(threadId, 'Say hello');
      const pid = agentPid(marker);
      rss.push([provider, pid ? treeRssMb(pid) : NaN]);
      if (provider !== 'claude' || !pid) continue;
      process.kill(pid, 'SIGKILL'); // the agent stops; the thread's next prompt starts it again on its session
      await new Promise((resolve) => setTimeout(resolve, 500));
      const again = await bench.run(threadId, 'Say hello');
      const first = (type: string) => again.rows.find(({ row }) => row.type === type)!.at - again.postedAt;
      const own = await ownStartMs('claude', sandbox.projectDir, claudeAgentEnv(path.join(root, 'own-home'), claudeModel.origin));
      console.log('Prompt on a stopped Claude Code agent → first stored rows (goal ≤ 2.5 s), fake model:');
      console.log(
        `  turn/started ${first('turn/started').toFixed(0)} ms, first answer row ${first('item/agentMessage/delta').toFixed(0)} ms`,
      );
      console.log(
        `  Claude Code's own start, outside the service: initialize ${own.initialize.toFixed(0)} ms, session/new ${own.session.toFixed(0)} ms`,
      );
    }
    const gemini = await ownStartMs('gemini', sandbox.projectDir, geminiAgentEnv(path.join(root, 'gemini-own-home'), geminiModel.origin));
    console.log(
      `Gemini CLI's own start, outside the service: initialize ${gemini.initialize.toFixed(0)} ms, session/new ${gemini.session.toFixed(0)} ms`,
    );
    console.log('RSS of each running agent process tree after one answer:');
    for (const [provider, mb] of rss) console.log(`  ${provider.padEnd(7)} ${mb.toFixed(0).padStart(5)} MB`);
  } finally {
    await bench.close();
    await Promise.all([claudeModel.close(), codexModel.close(), geminiModel.close(), piModel.close()]);
    sandbox.remove();
    rmSync(root, { recursive: true, force: true });
  }
}
