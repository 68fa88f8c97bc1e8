import type http from 'node:http';
import { holdOpen, scriptStep, sse, startFakeAgentModel, type AgentReply, type AgentScripts, type FakeAgentModel } from './agentModel';

/**
 * A fake Gemini API (the Generative Language API that Gemini CLI's `@google/genai` calls) for `gemini --acp`:
 * point `GOOGLE_GEMINI_BASE_URL` at `origin`. The conversation comes as `POST /v1beta/models/{model}:
 * streamGenerateContent?alt=sse`, answered by the script as SSE `GenerateContentResponse` chunks; a `command`
 * step is a `run_shell_command` functionCall, a `write` step a `write_file` one. Side calls come as the
 * non-streamed `:generateContent` (the model router, asking for JSON by a schema, and anything else), answered
 * with an object built from the schema or a short text; `:countTokens` with a count. Any other path is answered
 * 404 and kept in `unexpected`, so a test can fail naming it.
 */
export const SIDE_CALL_TEXT = 'Fake title';

export interface FakeGeminiModel extends FakeAgentModel {
  /** `METHOD path` of every request this fake does not serve, in arrival order. */
  readonly unexpected: string[];
}

const ROUTE = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;
const USAGE = { promptTokenCount: 120, candidatesTokenCount: 8, totalTokenCount: 128, cachedContentTokenCount: 20 };

export async function startFakeGeminiServer(scripts: AgentScripts): Promise<FakeGeminiModel> {
  const unexpected: string[] = [];
  const model = await startFakeAgentModel((path, body, res, openSlow, method) => {
    const route = ROUTE.exec(path);
    if (!route || method !== 'POST') {
      unexpected.push(`${method} ${path}`);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 404, message: `the fake Gemini API has no ${method} ${path}`, status: 'NOT_FOUND' } }));
      return;
    }
    const [, modelName, verb] = route;
    if (verb === 'countTokens') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ totalTokens: 120 }));
      return;
    }
    if (verb === 'generateContent') return answerSideCall(body, modelName!, res);
    const reply = scriptStep(scripts, turnsOf(body['contents'])) ?? { kind: 'text', chunks: [SIDE_CALL_TEXT] };
    streamReply(reply, modelName!, res, openSlow);
  });
  return { ...model, unexpected };
}

function streamReply(reply: AgentReply, model: string, res: http.ServerResponse, openSlow: Set<() => void>): void {
  const send = sse(res);
  const chunk = (parts: unknown[] | undefined, finishReason?: string) =>
    send(undefined, {
      candidates: [
        { ...(parts === undefined ? {} : { content: { role: 'model', parts } }), index: 0, ...(finishReason ? { finishReason } : {}) },
      ],
      ...(finishReason ? { usageMetadata: USAGE } : {}),
      modelVersion: model,
      responseId: `fake_${Math.random().toString(36).slice(2, 10)}`,
    });
  switch (reply.kind) {
    case 'text':
      reply.chunks.forEach((text, index) => chunk([{ text }], index === reply.chunks.length - 1 ? 'STOP' : undefined));
      return void res.end();
    case 'slow':
      for (const text of reply.chunks) chunk([{ text }]);
      return holdOpen(res, openSlow, () => {
        chunk(undefined, 'STOP');
        res.end();
      });
    case 'command':
    case 'write':
      chunk([{ functionCall: functionCallOf(reply) }], 'STOP');
      return void res.end();
  }
}

/** Gemini CLI's tools for a step: `run_shell_command` and `write_file` (its own names, core's tool-names). */
function functionCallOf(reply: Extract<AgentReply, { kind: 'command' | 'write' }>): { name: string; args: Record<string, unknown> } {
  return reply.kind === 'command'
    ? { name: 'run_shell_command', args: { command: reply.command } }
    : { name: 'write_file', args: { file_path: reply.path, content: reply.content } };
}

/**
 * A non-streamed call is one of Gemini CLI's own (the model router's classifier, a title, a summary): JSON by the
 * request's schema when it asks for JSON, else a short text. Never a script step, so a side call that carries
 * the conversation never consumes one.
 */
function answerSideCall(body: Record<string, unknown>, model: string, res: http.ServerResponse): void {
  const config = recordOf(body['generationConfig']);
  const schema = config?.['responseJsonSchema'] ?? config?.['responseSchema'];
  const text = config?.['responseMimeType'] === 'application/json' ? JSON.stringify(valueOf(schema)) : SIDE_CALL_TEXT;
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: USAGE,
      modelVersion: model,
    }),
  );
}

/**
 * The plainest value a JSON schema (or Gemini's OpenAPI-style `responseSchema`, types in capitals) accepts:
 * every property of an object, an enum's first value (the router's `flash`), a string `fake`, a number's
 * minimum (the numerical router's complexity score).
 */
export function valueOf(schema: unknown): unknown {
  const fields = recordOf(schema);
  if (!fields) return {};
  if (Array.isArray(fields['enum']) && fields['enum'].length > 0) return fields['enum'][0];
  const type = String(Array.isArray(fields['type']) ? fields['type'][0] : (fields['type'] ?? 'object')).toLowerCase();
  switch (type) {
    case 'object': {
      const properties = recordOf(fields['properties']) ?? {};
      return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueOf(property)]));
    }
    case 'array':
      return [];
    case 'string':
      return 'fake';
    case 'integer':
    case 'number':
      return typeof fields['minimum'] === 'number' ? fields['minimum'] : 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/**
 * Contents as (role, text) pairs: a user content's text parts (a functionResponse content reads as ''), a
 * model content as an assistant ''.
 */
function turnsOf(contents: unknown): Array<{ role: string; text: string }> {
  if (!Array.isArray(contents)) return [];
  return contents.map((content: { role?: unknown; parts?: unknown }) => ({
    role: content?.role === 'model' ? 'assistant' : content?.role === 'user' ? 'user' : '',
    text: Array.isArray(content?.parts)
      ? content.parts.map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : '')).join('\n')
      : '',
  }));
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
