import http from 'node:http';
import https from 'node:https';
import { tlsDialFailure } from '../../link/tlsTrust';
import { ENROLL_PATH, EnrolledSchema, type EnrollBody } from '../../protocol/hostEnrollment';
import { CA_SETTING } from './daemonLinkClient';

/** The server turned the code down (used, expired, unknown): retrying the same code cannot help. */
export class EnrollmentRefused extends Error {}

/** An enrollment request that has had no answer in this long is given up on, and the next server is asked. */
const ENROLL_TIMEOUT_MS = 30_000;

/**
 * Trades a one-time code for this host's credential at the first server of the list that answers (replicas
 * share one registry, so any of them can). `ca` (PEM, `--ca`) is trusted instead of the system's CAs for an
 * https server, as the link trusts it (fetch in Node 20 takes no CA of its own, so this is node:https). The
 * code and the credential are never logged.
 */
export async function enrollHost(serverUrls: readonly string[], body: EnrollBody, ca?: string): Promise<string> {
  const failures: string[] = [];
  for (const server of serverUrls) {
    const url = enrollUrl(server);
    let answered: { status: number; text: string };
    try {
      answered = await postJson(url, body, ca);
    } catch (error) {
      const cause = error instanceof Error ? error : new Error(String(error));
      failures.push(`${url}: ${tlsDialFailure(cause, url, CA_SETTING)?.message ?? cause.message}`);
      continue;
    }
    const answer = parsed(answered.text) as { detail?: string; code?: string };
    if (answered.status === 201) return EnrolledSchema.parse(answer).credential;
    const why = `${url} answered ${answered.status}${answer.code ? ` ${answer.code}` : ''}: ${answer.detail ?? 'no detail'}`;
    if (answered.status >= 400 && answered.status < 500) throw new EnrollmentRefused(`enrollment refused: ${why}`);
    failures.push(why);
  }
  throw new Error(`enrollment failed, no server took the code: ${failures.join('; ')}`);
}

function postJson(url: string, body: unknown, ca: string | undefined): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body);
  const secure = url.startsWith('https:');
  const options = {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
    timeout: ENROLL_TIMEOUT_MS,
    ...(secure && ca !== undefined ? { ca } : {}),
  };
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request(url, options, (response) => {
      let answer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (answer += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: answer }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer in ${ENROLL_TIMEOUT_MS / 1000} s`)));
    request.on('error', reject);
    request.end(text);
  });
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** `ws://h:p/api/v1/daemon` or `http://h:p` → `http://h:p/api/v1/hosts/enroll` (wss, https → https). */
export function enrollUrl(server: string): string {
  const url = new URL(server.trim());
  url.protocol = url.protocol === 'wss:' || url.protocol === 'https:' ? 'https:' : 'http:';
  url.pathname = url.pathname.replace(/\/api\/v1\/daemon\/?$/, '').replace(/\/$/, '') + ENROLL_PATH;
  url.search = '';
  return url.toString();
}
