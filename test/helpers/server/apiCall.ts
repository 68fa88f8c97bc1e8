/**
 * One call to a server's `/api/v1` with a bearer token, as a client outside the process makes it: GET without
 * a body, POST with one. A non-2xx answer fails with its path, status and body, so a test says what went wrong.
 */
export async function apiCall(base: string, token: string, pathname: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}/api/v1${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${pathname} → ${response.status} ${text}`);
  return JSON.parse(text);
}
