import type http from 'node:http';
import { holdOpen, scriptStep, sse, startFakeAgentModel, type AgentReply, type AgentScripts, type FakeAgentModel } from './agentModel';

/**
 * A fake Anthropic Messages API (`POST /v1/messages`, streamed as SSE or answered whole) for Claude Code
 * behind claude-agent-acp: point `ANTHROPIC_BASE_URL` at `origin`. A `command` step is a `Bash` tool_use.
 * Claude Code adds its own text (system reminders) to user messages and makes side calls (a session title,
 * token counts): the script is chosen by the latest user text naming a key, and anything else gets a short
 * plain answer so a side call never fails the run.
 */
export const SIDE_CALL_TEXT = 'Fake title';

const USAGE = { input_tokens: 120, output_tokens: 8, cache_read_input_tokens: 20, cache_creation_input_tokens: 0 };

export function startFakeAnthropicServer(scripts: AgentScripts): Promise<FakeAgentModel> {
  return startFakeAgentModel((path, body, res, openSlow) => {
    if (path.endsWith('/count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 120 }));
      return;
    }
    const model = typeof body['model'] === 'string' ? body['model'] : 'claude-fake';
    const reply = scriptStep(scripts, turnsOf(body['messages'])) ?? { kind: 'text', chunks: [SIDE_CALL_TEXT] };
    if (body['stream'] === true) streamReply(reply, model, res, openSlow);
    else answerWhole(reply, model, res);
  });
}

function streamReply(reply: AgentReply, model: string, res: http.ServerResponse, openSlow: Set<() => void>): void {
  const send = sse(res);
  const id = `msg_fake_${Math.random().toString(36).slice(2, 10)}`;
  send('message_start', {
    type: 'message_start',
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: USAGE },
  });
  const finish = (stopReason: string) => {
    send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 8 } });
    send('message_stop', { type: 'message_stop' });
    res.end();
  };
  const sendText = (chunks: string[]) => {
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    for (const text of chunks) send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
  };
  switch (reply.kind) {
    case 'text':
      sendText(reply.chunks);
      send('content_block_stop', { type: 'content_block_stop', index: 0 });
      return finish('end_turn');
    case 'slow':
      sendText(reply.chunks);
      return holdOpen(res, openSlow, () => {
        send('content_block_stop', { type: 'content_block_stop', index: 0 });
        finish('end_turn');
      });
    case 'command':
    case 'write': {
      const [name, input] = toolUseOf(reply);
      const half = Math.floor(input.length / 2);
      send('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: `toolu_fake_${Math.random().toString(36).slice(2, 10)}`, name, input: {} },
      });
      for (const part of [input.slice(0, half), input.slice(half)]) {
        send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: part } });
      }
      send('content_block_stop', { type: 'content_block_stop', index: 0 });
      return finish('tool_use');
    }
  }
}

function answerWhole(reply: AgentReply, model: string, res: http.ServerResponse): void {
  const content =
    reply.kind === 'command' || reply.kind === 'write'
      ? [{ type: 'tool_use', id: 'toolu_fake_whole', name: toolUseOf(reply)[0], input: JSON.parse(toolUseOf(reply)[1]) }]
      : [{ type: 'text', text: reply.chunks.join('') }];
  const message = {
    id: 'msg_fake_whole',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.kind === 'command' || reply.kind === 'write' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: USAGE,
  };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
}

/** Messages as (role, text) pairs: a user message's text blocks (not its tool results), an assistant message as ''. */
function turnsOf(messages: unknown): Array<{ role: string; text: string }> {
  if (!Array.isArray(messages)) return [];
  return messages.map((message: { role?: unknown; content?: unknown }) => ({
    role: typeof message.role === 'string' ? message.role : '',
    text: textOf(message.content),
  }));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block: { type?: unknown; text?: unknown }) => (block?.type === 'text' && typeof block.text === 'string' ? block.text : ''))
    .join('\n');
}

/** Claude Code's tool for a step, and its input as JSON text. */
function toolUseOf(reply: Extract<AgentReply, { kind: 'command' | 'write' }>): [string, string] {
  return reply.kind === 'command'
    ? ['Bash', JSON.stringify({ command: reply.command, description: 'Run the command' })]
    : ['Write', JSON.stringify({ file_path: reply.path, content: reply.content })];
}
