import http from 'node:http';
import { listenFake } from './listenFake';

/**
 * What the fake model servers for the real ACP agents (fakeAnthropicServer, fakeResponsesServer,
 * fakeGeminiServer) share: a loopback HTTP server on port 0 that records every JSON body and answers by a script
 * chosen from the conversation, in each API's own wire format.
 */

/** One scripted model answer, independent of the API that carries it. */
export type AgentReply =
  /** Streams `chunks` as text deltas and ends the answer. */
  | { kind: 'text'; chunks: string[] }
  /**
   * Asks the agent to run one shell command (Claude's `Bash` tool, Codex's shell function). `escalated`: Codex
   * is asked to run it outside its sandbox (`sandbox_permissions: "require_escalated"`), which asks the user in
   * its `read-only` and `workspace-write` modes; Claude asks for any command that writes, in its `default` mode.
   */
  | { kind: 'command'; command: string; escalated?: boolean }
  /** Streams `chunks`, then holds the stream open until the client goes away (a cancel) or `releaseSlow()`. */
  | { kind: 'slow'; chunks: string[] }
  /** Asks the agent to write a whole file (Claude's `Write` tool; the Responses fake has none). */
  | { kind: 'write'; path: string; content: string };

/**
 * By the conversation's latest user text that names a script key: the script, at the step given by how many
 * model answers follow that text (a command's result comes back as the next request, which gets the next step).
 */
export type AgentScripts = Record<string, AgentReply[]>;

export interface FakeAgentModel {
  /** `http://127.0.0.1:<port>`; each fake says which path its agent appends. */
  readonly origin: string;
  /** Every JSON request body, in arrival order (side calls such as title generation included). */
  readonly requests: Array<{ path: string; body: Record<string, unknown> }>;
  /** Ends every slow answer still open, normally. */
  releaseSlow(): void;
  close(): Promise<void>;
}

export type Answer = (
  path: string,
  body: Record<string, unknown>,
  res: http.ServerResponse,
  openSlow: Set<() => void>,
  method: string,
) => void;

export async function startFakeAgentModel(answer: Answer): Promise<FakeAgentModel> {
  const requests: FakeAgentModel['requests'] = [];
  const openSlow = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        if (text !== '') body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad json"}}');
        return;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      requests.push({ path, body });
      try {
        answer(path, body, res, openSlow, req.method ?? 'GET');
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'fake_error', message: `fake model has no answer: ${String(error)}` } }));
      }
    });
  });
  return { ...(await listenFake(server, openSlow)), requests };
}

/** Holds an SSE answer open until released (then `finish` runs) or the client goes away. */
export function holdOpen(res: http.ServerResponse, openSlow: Set<() => void>, finish: () => void): void {
  const release = () => {
    openSlow.delete(release);
    if (!res.writableEnded && !res.destroyed) finish();
  };
  openSlow.add(release);
  res.on('close', () => openSlow.delete(release));
}

/**
 * The script step for a conversation given as (role, text) pairs in order: the latest user text containing a
 * key picks the script; model answers after it pick the step. Undefined when no user text names a script
 * (a side call such as title generation, which the fakes answer with a short text).
 */
export function scriptStep(scripts: AgentScripts, turns: Array<{ role: string; text: string }>): AgentReply | undefined {
  for (let index = turns.length - 1; index >= 0; index--) {
    const { role, text } = turns[index]!;
    if (role !== 'user') continue;
    const key = Object.keys(scripts).find((candidate) => text.includes(candidate));
    if (key === undefined) continue;
    const step = turns.slice(index + 1).filter((turn) => turn.role === 'assistant').length;
    const script = scripts[key]!;
    return script[Math.min(step, script.length - 1)];
  }
  return undefined;
}

export function sse(res: http.ServerResponse): (event: string | undefined, data: unknown) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return (event, data) => res.write(`${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`);
}
