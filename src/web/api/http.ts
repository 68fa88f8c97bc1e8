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
