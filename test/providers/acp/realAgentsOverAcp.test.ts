import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import * as acp from '@agentclientprotocol/sdk';
import { ARGS_OF, CODEX_TEST_MODEL, describeWithAgents, netGuardLog, testAgentBin } from '../../helpers/agents/acpAgents';
import { startAcpTestClient, type AcpTestClient } from '../../helpers/agents/acpTestClient';
import type { AgentScripts, FakeAgentModel } from '../../helpers/fakes/agentModel';
import { REAL_AGENTS, type RealAgent } from '../../helpers/agents/realAgents';
import { startFakeGeminiServer, type FakeGeminiModel } from '../../helpers/fakes/geminiServer';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

/**
 * The offline setup every ACP test stands on: each real agent, driven by the SDK's own client, runs a whole
 * session against a fake model server on loopback (no network, an isolated HOME / CODEX_HOME / ~/.gemini).
 */
const SCRIPTS: AgentScripts = {
  'say hello': [{ kind: 'text', chunks: ['Hel', 'lo ', 'there'] }],
  'run the probe': [
    { kind: 'command', command: 'echo probe-output' },
    { kind: 'text', chunks: ['The probe ran.'] },
  ],
};

const AGENTS: RealAgent[] = Object.values(REAL_AGENTS);

describeWithAgents('real ACP agents over the SDK client, offline', function () {
  this.timeout(120_000);

  for (const { agent, startModel, envOf } of AGENTS) {
    describe(agent, function () {
      let model: FakeAgentModel;
      let client: AcpTestClient;
      let sessionId: string;
      let home: string;
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
        home = path.join(root, 'home');
        client = startAcpTestClient(testAgentBin(agent), { cwd, env: envOf(home, model.origin), args: ARGS_OF[agent] });
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

      if (agent === 'gemini') {
        it('stayed offline: the fake served every request (model router included), and nothing tried another host', () => {
          expect((model as FakeGeminiModel).unexpected).to.deep.equal([]);
          expect(model.requests.some((request) => request.path.endsWith(':streamGenerateContent'))).to.equal(true);
          const tried = existsSync(netGuardLog(home)) ? readFileSync(netGuardLog(home), 'utf8') : '';
          expect(tried, 'connections off loopback').to.equal('');
        });
      }

      if (agent === 'codex') {
        it(`ran on the pinned model ${CODEX_TEST_MODEL}`, () => {
          expect(model.requests.some((request) => request.body['model'] === CODEX_TEST_MODEL)).to.equal(true);
        });
      }
    });
  }
});
