// An ACP agent for bench:acp, written with the SDK's agent side: a prompt "stream <count> every <ms>" streams
// <count> agent_message_chunk updates, each "<wall-clock ms when sent>|", one every <ms> (0: as fast as the pipe
// takes them), so the bench reads each chunk's latency from the row that carries it.
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let sessions = 0;

acp
  .agent({ name: 'bench-streaming-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false, sessionCapabilities: { resume: {} } },
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `bench-session-${++sessions}-${process.pid}` }))
  .onRequest(acp.methods.agent.session.resume, () => ({}))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
    const [, count, every] = /stream (\d+) every (\d+)/.exec(text) ?? [, '1', '0'];
    for (let i = 0; i < Number(count); i++) {
      if (Number(every) > 0) await sleep(Number(every));
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', messageId: 'm1', content: { type: 'text', text: `${now()}|` } },
      });
    }
    return { stopReason: 'end_turn' };
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin)));
