import { signal } from '@preact/signals';

/** The API as the page sees it: same origin, the session cookie does the signing in. */
export const API = '/api/v1';

/** False once the server answered 401: the page then asks for the token instead of failing on every call. */
export const signedIn = signal<boolean | null>(null);

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

export async function api<T>(path: string, options: { method?: string; body?: unknown } = {}): Promise<T> {
  const init: RequestInit = { method: options.method ?? (options.body === undefined ? 'GET' : 'POST'), credentials: 'same-origin' };
  if (options.body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(`${API}${path}`, init);
  if (response.status === 401 && !path.startsWith('/session')) signedIn.value = false;
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const body = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    const problem = (body ?? {}) as { code?: string; detail?: string; title?: string };
    throw new ApiError(response.status, problem.code ?? 'http_error', problem.detail ?? problem.title ?? `HTTP ${response.status}`);
  }
  return body as T;
}

/** What a failed call says to a person. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
