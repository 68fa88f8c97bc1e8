// An ACP agent written with the SDK's agent side, for the edges real agents rarely show. Run with node; what it
// does is chosen by the prompt's text: "say hi", "race" (updates racing the answer), "unknown kind", "die"
// (exits mid-turn), "hang" (answers only a cancel), "ask" (asks permission for a command, says the outcome;
// a cancelled question ends the prompt cancelled), "malformed" (writes lines that are no ACP messages),
// "child" (starts a process that outlives the agent's own exit, and says its pid).
// IN_REPO_AGENT_MODES=1: the session offers Claude Code's modes, and each session/set_mode is told back as a
// current_mode_update.
// IN_REPO_AGENT_START_GATE=<folder>: a slow start the test controls: `initialize` is answered once the file named
// like the agent's folder appears there; a file that says "fail" makes the agent exit 1 instead.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const cancels = new Map();
// IN_REPO_AGENT_DELETE=record|hang: the agent advertises session/delete (see its handler).
const deleteCapability = process.env.IN_REPO_AGENT_DELETE ? { delete: {} } : {};
let sessions = 0;

async function startGate() {
  const gate = process.env.IN_REPO_AGENT_START_GATE;
  if (!gate) return {};
  const file = path.join(gate, path.basename(process.cwd()));
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
  if (readFileSync(file, 'utf8').trim() === 'fail') {
    process.stderr.write('the start gate said fail\n');
    process.exit(1);
  }
  return {};
}

const chunk = (text, messageId = 'm1') => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, messageId });

acp
  .agent({ name: 'in-repo-agent' })
  .onRequest(acp.methods.agent.initialize, async () => ({
    ...(await startGate()),
    protocolVersion: acp.PROTOCOL_VERSION,
    // IN_REPO_AGENT_RESUME=load: the agent can only load a session, replaying its history as updates.
    agentCapabilities: process.env.IN_REPO_AGENT_RESUME?.startsWith('load')
      ? { loadSession: true, sessionCapabilities: deleteCapability }
      : { loadSession: false, sessionCapabilities: { resume: {}, ...deleteCapability } },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => ({
    sessionId: `in-repo-session-${++sessions}-${process.pid}`,
    ...(process.env.IN_REPO_AGENT_MODES === '1'
      ? { modes: { currentModeId: 'auto', availableModes: ['default', 'acceptEdits', 'plan', 'auto'].map((id) => ({ id, name: id })) } }
      : {}),
    // IN_REPO_AGENT_MODELS=1: the session offers two models, as Claude Code and Codex do, through its config options.
    ...(process.env.IN_REPO_AGENT_MODELS === '1'
      ? {
          configOptions: [
            {
              id: 'model',
              name: 'Model',
              type: 'select',
              currentValue: 'small',
              options: [
                { value: 'small', name: 'In-repo small' },
                { value: 'large', name: 'In-repo large' },
              ],
            },
          ],
        }
      : {}),
  }))
  .onRequest(acp.methods.agent.session.setMode, async ({ params, client }) => {
    await client.notify(acp.methods.client.session.update, {
      sessionId: params.sessionId,
      update: { sessionUpdate: 'current_mode_update', currentModeId: params.modeId },
    });
    return {};
  })
  .onRequest(acp.methods.agent.session.resume, () => ({}))
  .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
    const update = (u) => client.notify(acp.methods.client.session.update, { sessionId: params.sessionId, update: u });
    const replay = async () => {
      await update({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'say hi' } });
      await update(chunk('Hi there (replayed)'));
    };
    // IN_REPO_AGENT_RESUME=load-late: the history comes after the answer, as Gemini CLI 0.61 sends it.
    if (process.env.IN_REPO_AGENT_RESUME === 'load-late') setTimeout(replay, 20);
    else await replay();
    return {};
  })
  // Told only when advertised: "record" writes `<sessionId> <pid> <cwd>` to the file IN_REPO_AGENT_DELETED names,
  // "hang" never answers.
  .onRequest(acp.methods.agent.session.delete, async ({ params }) => {
    if (process.env.IN_REPO_AGENT_DELETE === 'hang') return new Promise(() => undefined);
    appendFileSync(process.env.IN_REPO_AGENT_DELETED, `${params.sessionId} ${process.pid} ${process.cwd()}\n`);
    return {};
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => cancels.get(params.sessionId)?.())
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const { sessionId } = params;
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const update = (u) => client.notify(acp.methods.client.session.update, { sessionId, update: u });
    if (text.includes('race')) {
      // Not awaited: the answer goes out right behind the updates, as fast as the pipe takes them.
      for (let i = 0; i < 50; i++) void update(chunk(`${i},`));
      return { stopReason: 'end_turn' };
    }
    if (text.includes('unknown kind')) {
      await update({ sessionUpdate: 'brand_new_kind', detail: 1 });
      await update(chunk('still here'));
      return { stopReason: 'end_turn' };
    }
    if (text.includes('die')) {
      await update(chunk('about to die'));
      setTimeout(() => process.exit(3), 50);
      return new Promise(() => undefined);
    }
    if (text.includes('hang')) {
      await update(chunk('waiting'));
      await new Promise((resolve) => cancels.set(sessionId, resolve));
      return { stopReason: 'cancelled' };
    }
    if (text.includes('child')) {
      // Unref'd: the agent still exits when its stdin closes, and the sleep would go on as an orphan.
      const child = spawn('sleep', ['300'], { stdio: 'ignore' });
      child.unref();
      await update(chunk(`child ${child.pid}`));
      return { stopReason: 'end_turn' };
    }
    if (text.includes('malformed')) {
      // Straight onto stdout, between whole messages: a line that is no JSON, and JSON that is no ACP message.
      process.stdout.write('this is not json\n');
      process.stdout.write('{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":42}}\n');
      process.stdout.write('{"jsonrpc":"2.0","id":"no-such-request","result":{}}\n');
      process.stdout.write('[1,2,3]\n');
      await update(chunk('still fine'));
      return { stopReason: 'end_turn' };
    }
    if (text.includes('ask')) {
      const toolCall = {
        toolCallId: 'call_ask',
        title: 'rm -rf build',
        kind: 'execute',
        status: 'pending',
        rawInput: { command: 'rm -rf build' },
      };
      await update({ sessionUpdate: 'tool_call', ...toolCall });
      const answer = await client.request(acp.methods.client.session.requestPermission, {
        sessionId,
        toolCall,
        options: [
          { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      });
      const chosen = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
      await update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_ask', status: chosen === 'yes' ? 'completed' : 'failed' });
      await update(chunk(`permission: ${chosen}`, 'm2'));
      return { stopReason: chosen === 'cancelled' ? 'cancelled' : 'end_turn' };
    }
    await update(chunk('Hi'));
    await update(chunk(' there'));
    return { stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 2, totalTokens: 12 } };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
