// A misbehaving ACP agent, written by hand (NDJSON JSON-RPC on stdio, no SDK), for the faults that must not
// outlive their turn (issue 37). Its first argument picks the fault:
// - `huge-line`: a prompt whose text says "huge" is answered with one 40 MB line (beyond the SDK's message limit);
// - `deaf`: a prompt whose text says "hang" is never answered, and `session/cancel` is ignored;
// - `no-init`: `initialize` is never answered.
// Any other prompt is answered "Hi" and `end_turn`. Each start appends its pid to the file FAULTY_AGENT_PIDS names,
// and the agent ignores its stdin's end, SIGTERM and a closed stdout (a hung agent does not exit on its own): only
// SIGKILL ends it.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const fault = process.argv[2];
if (process.env.FAULTY_AGENT_PIDS) appendFileSync(process.env.FAULTY_AGENT_PIDS, `${process.pid}\n`);
process.on('SIGTERM', () => undefined);
// A reader that gave up on a line (the SDK's message limit) must not end this agent through an EPIPE either.
process.stdout.on('error', () => undefined);
setInterval(() => undefined, 60_000);

let sessions = 0;
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const update = (sessionId, text) =>
  send({
    method: 'session/update',
    params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, messageId: 'm1' } },
  });

const handlers = {
  initialize: () =>
    fault === 'no-init'
      ? undefined
      : { protocolVersion: 1, agentCapabilities: { loadSession: false, sessionCapabilities: { resume: {} } }, authMethods: [] },
  'session/new': ({ _meta }) => {
    // FAULTY_AGENT_SESSION_META=<file>: the `_meta` the client opened the session with, as JSON (null: none).
    if (process.env.FAULTY_AGENT_SESSION_META) appendFileSync(process.env.FAULTY_AGENT_SESSION_META, `${JSON.stringify(_meta ?? null)}\n`);
    return { sessionId: `faulty-session-${++sessions}-${process.pid}` };
  },
  'session/resume': () => ({}),
  'session/prompt': ({ sessionId, prompt }) => {
    const text = prompt.map((block) => block.text ?? '').join('');
    if (fault === 'huge-line' && text.includes('huge')) {
      update(sessionId, 'x'.repeat(40 * 1024 * 1024));
      return undefined;
    }
    if (fault === 'deaf' && text.includes('hang')) {
      update(sessionId, 'waiting, and deaf to session/cancel');
      return undefined;
    }
    update(sessionId, `Hi from ${process.pid}`);
    return { stopReason: 'end_turn' };
  },
};

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  const handler = handlers[message.method];
  if (message.id === undefined) return; // notifications (session/cancel) are not heard
  if (!handler) return send({ id: message.id, error: { code: -32601, message: `no method ${message.method}` } });
  const result = handler(message.params ?? {});
  if (result !== undefined) send({ id: message.id, result });
});
