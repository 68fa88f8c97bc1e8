import http from 'node:http';
import { listenFake } from './listenFake';

/**
 * A fake OpenAI-compatible chat-completions server on 127.0.0.1 (port 0) that streams scripted replies as SSE,
 * so the real pi SDK can run end to end without leaving the machine.
 *
 * Replies are chosen per request by `respond`; `scriptByPrompt` builds the usual router: the conversation's
 * latest user text picks a script, and the number of assistant answers since that text picks the step (so a
 * tool call is followed by the script's next reply once the tool result comes back).
 */
export type ScriptedReply =
  /** Streams `chunks` as text deltas, then `finish_reason: "stop"` and a usage chunk. */
  | { kind: 'text'; chunks: string[]; usage?: FakeUsage }
  /** Streams one tool call (arguments split in two deltas), then `finish_reason: "tool_calls"`. */
  | { kind: 'toolCall'; toolName: string; args: Record<string, unknown>; callId?: string; usage?: FakeUsage }
  /** Answers with an HTTP error status and an OpenAI-style error body. */
  | { kind: 'httpError'; status: number; message: string }
  /** Streams `chunks`, then destroys the socket without finishing the stream. */
  | { kind: 'cut'; chunks: string[] }
  /** Streams `chunks`, then holds the stream open until the client goes away (an abort) or `releaseSlow()`. */
  | { kind: 'slow'; chunks: string[]; rest?: string[] }
  /** `first` for the first request that picks this reply, `then` for every later one (e.g. a retry). */
  | { kind: 'once'; first: ScriptedReply; then: ScriptedReply };

export interface FakeUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
}

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown }>;
  tools?: unknown[];
  stream?: boolean;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>/v1`, the `baseUrl` for pi's `models.json`. */
  readonly baseUrl: string;
  /** Every request body received, in arrival order. */
  readonly requests: ChatRequest[];
  /** The `authorization` header of each request, in the same order (which key pi sent). */
  readonly authorizations: Array<string | undefined>;
  /** Ends every slow reply that is still open by streaming its `rest` and finishing normally. */
  releaseSlow(): void;
  close(): Promise<void>;
}

export type Responder = (request: ChatRequest) => ScriptedReply;

const usedOnce = new WeakSet<ScriptedReply>();

const DEFAULT_USAGE: FakeUsage = { promptTokens: 120, completionTokens: 8, cachedTokens: 20 };

export async function startFakeModelServer(respond: Responder): Promise<FakeModelServer> {
  const requests: ChatRequest[] = [];
  const authorizations: Array<string | undefined> = [];
  const openSlow = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (chunk: Buffer) => body.push(chunk));
    req.on('end', () => {
      let request: ChatRequest;
      try {
        request = JSON.parse(Buffer.concat(body).toString('utf8')) as ChatRequest;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
        return;
      }
      requests.push(request);
      authorizations.push(req.headers.authorization);
      let reply: ScriptedReply;
      try {
        reply = respond(request);
      } catch (error) {
        reply = { kind: 'httpError', status: 500, message: `fake model has no reply: ${String(error)}` };
      }
      serveReply(reply, request, res, openSlow);
    });
  });
  const { origin, releaseSlow, close } = await listenFake(server, openSlow);
  return { baseUrl: `${origin}/v1`, requests, authorizations, releaseSlow, close };
}

function serveReply(reply: ScriptedReply, request: ChatRequest, res: http.ServerResponse, openSlow: Set<() => void>): void {
  if (reply.kind === 'once') {
    const first = !usedOnce.has(reply);
    usedOnce.add(reply);
    serveReply(first ? reply.first : reply.then, request, res, openSlow);
    return;
  }
  if (reply.kind === 'httpError') {
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: reply.message, type: 'fake_error', code: reply.status } }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const id = `chatcmpl-fake-${Math.random().toString(36).slice(2, 10)}`;
  const send = (choice: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model: request.model, choices: choice ? [{ index: 0, ...choice }] : [], ...extra })}\n\n`,
    );
  const finish = (reason: string, usage: FakeUsage = DEFAULT_USAGE) => {
    send({ delta: {}, finish_reason: reason });
    send(undefined, { usage: usageChunk(usage) });
    res.end('data: [DONE]\n\n');
  };
  const sendText = (chunks: string[]) =>
    chunks.forEach((text) => send({ delta: { role: 'assistant', content: text }, finish_reason: null }));

  switch (reply.kind) {
    case 'text':
      sendText(reply.chunks);
      finish('stop', reply.usage);
      return;
    case 'toolCall': {
      const args = JSON.stringify(reply.args);
      const half = Math.floor(args.length / 2);
      const callId = reply.callId ?? `call_${Math.random().toString(36).slice(2, 10)}`;
      send({
        delta: {
          role: 'assistant',
          tool_calls: [{ index: 0, id: callId, type: 'function', function: { name: reply.toolName, arguments: args.slice(0, half) } }],
        },
        finish_reason: null,
      });
      send({ delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }, finish_reason: null });
      finish('tool_calls', reply.usage);
      return;
    }
    case 'cut':
      sendText(reply.chunks);
      // Destroying the socket mid-stream is what a dropped connection looks like to the client.
      setImmediate(() => res.socket?.destroy());
      return;
    case 'slow': {
      sendText(reply.chunks);
      const release = () => {
        openSlow.delete(release);
        if (res.writableEnded || res.destroyed) return;
        sendText(reply.rest ?? []);
        finish('stop');
      };
      openSlow.add(release);
      res.on('close', () => openSlow.delete(release));
      return;
    }
  }
}

function usageChunk(usage: FakeUsage) {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
  };
}

/**
 * Routes by the conversation's latest user text (pi sends an extension's custom message as a user message too):
 * the first script whose key that text contains answers, with the step = assistant answers since that text.
 */
export function scriptByPrompt(scripts: Record<string, ScriptedReply[]>): Responder {
  return (request) => {
    const messages = request.messages;
    const { index: lastUser, text } = lastUserMessage(messages);
    const key = Object.keys(scripts).find((candidate) => text.includes(candidate));
    if (key === undefined) return { kind: 'httpError', status: 400, message: `no script for prompt: ${text.slice(0, 80)}` };
    const step = messages.slice(lastUser + 1).filter((message) => message.role === 'assistant').length;
    const script = scripts[key];
    return script[Math.min(step, script.length - 1)];
  };
}

/** The text of the request's latest user message ('' when it has none): what `scriptByPrompt` routes by. */
export function lastUserText(request: ChatRequest): string {
  return lastUserMessage(request.messages).text;
}

function lastUserMessage(messages: ChatRequest['messages']): { index: number; text: string } {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index].role === 'user') return { index, text: textOf(messages[index].content) };
  }
  return { index: -1, text: '' };
}

export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (part && typeof part.text === 'string' ? part.text : '')).join('');
  return '';
}
