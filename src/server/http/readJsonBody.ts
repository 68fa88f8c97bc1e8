import type { Context } from 'koa';
import { Problem } from './problem';

/**
 * Reads a JSON request body of at most `maxBytes` (413 `body_too_large` beyond, without buffering the rest).
 * Written here rather than pulled in as a dependency: it is the whole of what the API needs.
 */
export async function readJsonBody(ctx: Context, maxBytes: number): Promise<unknown> {
  if (!ctx.is('application/json')) {
    throw new Problem(415, 'unsupported_media_type', 'send the body as content-type: application/json');
  }
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Problem(400, 'invalid_json', 'the body is not valid JSON');
  }
}

function tooLarge(maxBytes: number): Problem {
  return new Problem(413, 'body_too_large', `the body exceeds ${maxBytes} bytes (config maxBodyBytes)`, { maxBytes });
}
