import type http from 'node:http';
import { holdOpen, scriptStep, sse, startFakeAgentModel, type AgentReply, type AgentScripts, type FakeAgentModel } from './agentModel';

/**
 * A fake OpenAI Responses API (`POST /v1/responses`, streamed) for Codex behind codex-acp: a custom
 * `model_providers` entry with `base_url = origin + "/v1"` and `wire_api = "responses"` (acpAgents.ts). A
 * `command` step is a call of whichever shell function the request offers. Side calls (a session title) get
 * a short plain answer.
 */
const SIDE_CALL_TEXT = 'Fake title';

export function startFakeResponsesServer(scripts: AgentScripts): Promise<FakeAgentModel> {
  return startFakeAgentModel((_path, body, res, openSlow) => {
    const reply = scriptStep(scripts, turnsOf(body['input'])) ?? { kind: 'text', chunks: [SIDE_CALL_TEXT] };
    streamReply(reply, body, res, openSlow);
  });
}

function streamReply(reply: AgentReply, body: Record<string, unknown>, res: http.ServerResponse, openSlow: Set<() => void>): void {
  const send = sse(res);
  const id = `resp_fake_${Math.random().toString(36).slice(2, 10)}`;
  const model = typeof body['model'] === 'string' ? body['model'] : 'fake';
  const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status: 'in_progress', output: [] };
  send('response.created', { type: 'response.created', response });
  const complete = (item: Record<string, unknown>) => {
    send('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
    send('response.completed', {
      type: 'response.completed',
      response: {
        ...response,
        status: 'completed',
        output: [item],
        usage: {
          input_tokens: 120,
          input_tokens_details: { cached_tokens: 20 },
          output_tokens: 8,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 128,
        },
      },
    });
    res.end();
  };
  if (reply.kind === 'write') return complete(applyPatchCall(reply.path, reply.content));
  if (reply.kind === 'command') return complete(shellCall(reply.command, body['tools'], reply.escalated === true));
  const itemId = `msg_fake_${Math.random().toString(36).slice(2, 10)}`;
  const message = (text: string, status: string) => ({
    type: 'message',
    id: itemId,
    role: 'assistant',
    status,
    content: status === 'completed' ? [{ type: 'output_text', text, annotations: [] }] : [],
  });
  send('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: message('', 'in_progress') });
  send('response.content_part.added', {
    type: 'response.content_part.added',
    item_id: itemId,
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  });
  for (const delta of reply.chunks) {
    send('response.output_text.delta', { type: 'response.output_text.delta', item_id: itemId, output_index: 0, content_index: 0, delta });
  }
  const finish = () => complete(message(reply.chunks.join(''), 'completed'));
  if (reply.kind === 'slow') holdOpen(res, openSlow, finish);
  else finish();
}

/** A call of the shell function the request offers, with that function's argument shape. */
function shellCall(command: string, tools: unknown, escalated: boolean): Record<string, unknown> {
  const names = Array.isArray(tools) ? tools.map((tool: { name?: unknown }) => tool?.name).filter((name) => typeof name === 'string') : [];
  const escalation = escalated ? { sandbox_permissions: 'require_escalated', justification: 'The test asks to run this.' } : {};
  const [name, args] = names.includes('exec_command')
    ? ['exec_command', { cmd: command, ...escalation }]
    : names.includes('shell_command')
      ? ['shell_command', { command }]
      : ['shell', { command: ['bash', '-lc', command] }];
  const callId = `call_fake_${Math.random().toString(36).slice(2, 10)}`;
  return { type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: JSON.stringify(args), status: 'completed' };
}

/** Codex writes files through its `apply_patch` custom tool (a freeform patch in its own grammar). */
function applyPatchCall(file: string, content: string): Record<string, unknown> {
  const added = content
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => `+${line}`)
    .join('\n');
  const callId = `call_fake_${Math.random().toString(36).slice(2, 10)}`;
  const input = `*** Begin Patch\n*** Add File: ${file}\n${added}\n*** End Patch\n`;
  return { type: 'custom_tool_call', id: `ctc_${callId}`, call_id: callId, name: 'apply_patch', input, status: 'completed' };
}

/** Input items as (role, text) pairs: user text, and each model answer (a message or a call) as an assistant ''. */
function turnsOf(input: unknown): Array<{ role: string; text: string }> {
  if (typeof input === 'string') return [{ role: 'user', text: input }];
  if (!Array.isArray(input)) return [];
  return input.flatMap((item: { type?: unknown; role?: unknown; content?: unknown }) => {
    if (item?.type === 'function_call' || item?.type === 'local_shell_call' || item?.type === 'custom_tool_call')
      return [{ role: 'assistant', text: '' }];
    if (item?.role === 'assistant') return [{ role: 'assistant', text: '' }];
    if (item?.role === 'user') return [{ role: 'user', text: textOf(item.content) }];
    return [];
  });
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('\n');
}
