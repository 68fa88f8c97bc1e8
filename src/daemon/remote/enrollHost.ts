import { ENROLL_PATH, EnrolledSchema, type EnrollBody } from '../../protocol/hostEnrollment';

/** The server turned the code down (used, expired, unknown): retrying the same code cannot help. */
export class EnrollmentRefused extends Error {}

/**
 * Trades a one-time code for this host's credential at the first server of the list that answers (replicas
 * share one registry, so any of them can). The code and the credential are never logged.
 */
export async function enrollHost(serverUrls: readonly string[], body: EnrollBody): Promise<string> {
  const failures: string[] = [];
  for (const server of serverUrls) {
    const url = enrollUrl(server);
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    } catch (error) {
      failures.push(
        `${url}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
      );
      continue;
    }
    const answer = (await response.json().catch(() => ({}))) as { detail?: string; code?: string };
    if (response.status === 201) return EnrolledSchema.parse(answer).credential;
    const why = `${url} answered ${response.status}${answer.code ? ` ${answer.code}` : ''}: ${answer.detail ?? 'no detail'}`;
    if (response.status >= 400 && response.status < 500) throw new EnrollmentRefused(`enrollment refused: ${why}`);
    failures.push(why);
  }
  throw new Error(`enrollment failed, no server took the code: ${failures.join('; ')}`);
}

/** `ws://h:p/api/v1/daemon` or `http://h:p` → `http://h:p/api/v1/hosts/enroll` (wss, https → https). */
export function enrollUrl(server: string): string {
  const url = new URL(server.trim());
  url.protocol = url.protocol === 'wss:' || url.protocol === 'https:' ? 'https:' : 'http:';
  url.pathname = url.pathname.replace(/\/api\/v1\/daemon\/?$/, '').replace(/\/$/, '') + ENROLL_PATH;
  url.search = '';
  return url.toString();
}
