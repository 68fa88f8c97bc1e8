import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import * as acp from '@agentclientprotocol/sdk';
import {
  claudeAgentEnv,
  codexAgentEnv,
  CODEX_TEST_MODEL,
  describeWithAgents,
  testAgentBin,
  type TestAgent,
} from '../../helpers/agents/acpAgents';
import { startAcpTestClient, type AcpTestClient } from '../../helpers/agents/acpTestClient';
import type { AgentScripts, FakeAgentModel } from '../../helpers/fakes/agentModel';
import { startFakeAnthropicServer } from '../../helpers/fakes/anthropicServer';
import { startFakeResponsesServer } from '../../helpers/fakes/responsesServer';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

/**
 * The offline setup every ACP test stands on: each real agent, driven by the SDK's own client, runs a whole
 * session against a fake model server on loopback (no network, an isolated HOME / CODEX_HOME).
 */
const SCRIPTS: AgentScripts = {
  'say hello': [{ kind: 'text', chunks: ['Hel', 'lo ', 'there'] }],
  'run the probe': [
    { kind: 'command', command: 'echo probe-output' },
    { kind: 'text', chunks: ['The probe ran.'] },
  ],
};

const AGENTS: Array<{ agent: TestAgent; startModel: (scripts: AgentScripts) => Promise<FakeAgentModel> }> = [
  { agent: 'claude', startModel: startFakeAnthropicServer },
  { agent: 'codex', startModel: startFakeResponsesServer },
];

describeWithAgents('real ACP agents over the SDK client, offline', function () {
  this.timeout(120_000);

  for (const { agent, startModel } of AGENTS) {
    describe(agent, function () {
      let model: FakeAgentModel;
      let client: AcpTestClient;
      let sessionId: string;
      after(async () => {
        await client?.close();
        await model?.close();
      });
      const tempDir = suiteTempDirs();

      before(async () => {
        model = await startModel(SCRIPTS);
        const root = await tempDir(`ats-acp-${agent}-`);
        const cwd = path.join(root, 'work');
        await mkdir(cwd);
        const env =
          agent === 'claude' ? claudeAgentEnv(path.join(root, 'home'), model.origin) : codexAgentEnv(path.join(root, 'home'), model.origin);
        client = startAcpTestClient(testAgentBin(agent), { cwd, env });
        const init = await client.connection.agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: {},
        });
        expect(init.protocolVersion, client.stderr()).to.equal(1);
        sessionId = (await client.connection.agent.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId;
        expect(sessionId).to.be.a('string').that.is.not.empty;
      });

      it('streams an answer as agent_message_chunk and ends the prompt with end_turn', async () => {
        const from = client.updates.length;
        const answer = await client.connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'say hello' }],
        });
        expect(answer.stopReason, client.stderr()).to.equal('end_turn');
        const text = client.updates
          .slice(from)
          .filter(
            (update): update is Extract<acp.SessionUpdate, { sessionUpdate: 'agent_message_chunk' }> =>
              update.sessionUpdate === 'agent_message_chunk',
          )
          .map((update) => (update.content.type === 'text' ? update.content.text : ''))
          .join('');
        expect(text).to.include('Hello there');
      });

      it('runs a command as an execute tool_call that completes', async () => {
        const from = client.updates.length;
        const answer = await client.connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'run the probe' }],
        });
        expect(answer.stopReason, client.stderr()).to.equal('end_turn');
        const updates = client.updates.slice(from);
        const call = updates.find((update) => update.sessionUpdate === 'tool_call');
        expect(call, JSON.stringify(updates)).to.include({ kind: 'execute' });
        const id = (call as { toolCallId: string }).toolCallId;
        const completed = updates.find(
          (update) => update.sessionUpdate === 'tool_call_update' && update.toolCallId === id && update.status === 'completed',
        );
        expect(completed, JSON.stringify(updates)).to.exist;
        // The command really ran: its output reached the model in the next request.
        expect(JSON.stringify(model.requests.at(-1)?.body)).to.include('probe-output');
      });

      if (agent === 'codex') {
        it(`ran on the pinned model ${CODEX_TEST_MODEL}`, () => {
          expect(model.requests.some((request) => request.body['model'] === CODEX_TEST_MODEL)).to.equal(true);
        });
      }
    });
  }
});
