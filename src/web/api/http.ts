import { signal } from '@preact/signals';
import createClient from 'openapi-fetch';
import type { paths } from './openapi';

/** The API as the page sees it: same origin, the session cookie does the signing in. */
export const API = '/api/v1';

/** False once the server answered 401: the page then asks for the token instead of failing on every call. */
export const signedIn = signal<boolean | null>(null);

/**
 * The one typed client: its paths, parameters, bodies and answers are the server's own OpenAPI document
 * (`GET /api/v1/openapi.json`, generated from the routes' zod schemas) turned into `openapi.d.ts`.
 */
export const client = createClient<paths>({ credentials: 'same-origin' });
client.use({
  onResponse({ request, response }) {
    if (response.status === 401 && !new URL(request.url).pathname.endsWith('/session')) signedIn.value = false;
    return response;
  },
});

/** A problem+json answer (docs/api.md#errors), kept whole so the page can say what went wrong. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A call's answer, or its problem thrown as an ApiError. */
export async function answerOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || error !== undefined) {
    const problem = (error ?? {}) as { code?: string; detail?: string; title?: string };
    throw new ApiError(response.status, problem.code ?? 'http_error', problem.detail ?? problem.title ?? `HTTP ${response.status}`);
  }
  return data as T;
}

/** What a failed call says to a person. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A call the typed client cannot make yet: a route or a field `openapi.d.ts` does not hold until the
 * server's document gains it (`npm run gen:web-api`). Same cookie, same origin, and a problem+json answer
 * becomes the same ApiError as the typed client's; a 204 answers `{}`.
 */
export async function sendJson<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', pathname: string, body?: unknown): Promise<T> {
  const response = await fetch(`${API}${pathname}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 401) signedIn.value = false;
  const answer = (await response.json().catch(() => ({}))) as { code?: string; detail?: string; title?: string };
  if (!response.ok)
    throw new ApiError(response.status, answer.code ?? 'http_error', answer.detail ?? answer.title ?? `HTTP ${response.status}`);
  return answer as T;
}
