import { SDK_MESSAGE_METHOD } from './signals';

/**
 * The shape almost every frame has, checked by hand before zod is asked: a JSON-RPC 2.0 envelope with only
 * known keys, a method, and params that carry a thread id (and, for `sdk/message`, a message with a string
 * `type`). zod costs about a microsecond and a dozen short-lived objects per frame, a good share of the
 * pipeline's own time; this check costs a few property reads. It only ever says yes to frames the schemas
 * accept with the same values (a property test holds the two side by side), and says nothing otherwise, so
 * every rejection, and every unusual frame, is still decided and worded by zod.
 */
export function plainFrameOf(value: unknown): { method: string; params: Record<string, unknown> } | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const key in value) if (!ENVELOPE_KEYS.has(key)) return undefined;
  const { jsonrpc, method, params, id } = value;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || method === '' || !isPlainId(id)) return undefined;
  if (!isPlainObject(params) || typeof params['threadId'] !== 'string' || params['threadId'] === '') return undefined;
  if (method === SDK_MESSAGE_METHOD) {
    const message = params['message'];
    if (!isPlainObject(message) || typeof message['type'] !== 'string') return undefined;
  }
  return { method, params };
}

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(['jsonrpc', 'method', 'params', 'id']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Narrower than the schema's id (no NaN or infinities, whatever zod makes of them): the rest goes to zod. */
function isPlainId(id: unknown): boolean {
  return id === undefined || id === null || typeof id === 'string' || Number.isSafeInteger(id);
}
