import { signal } from '@preact/signals';

export type Route =
  { page: 'home' } | { page: 'newProject' } | { page: 'newThread'; projectId: string } | { page: 'thread'; threadId: string; seq?: number };

/**
 * Hash routes (`#/threads/thr_…`): the server serves one index.html and needs no fallback for deep links.
 * `#/threads/thr_…?seq=N` (or `…#seq=N`) opens the thread at row N and marks it (issue 31).
 */
export function parseRoute(hash: string): Route {
  const [where = '', query = ''] = hash.replace(/^#\/?/, '').split(/[?#](.*)/s);
  const parts = where.split('/').filter(Boolean).map(decodeURIComponent);
  const seqText = new URLSearchParams(query).get('seq') ?? '';
  const seq = /^\d{1,15}$/.test(seqText) ? Number(seqText) : undefined;
  if (parts[0] === 'threads' && parts[1])
    return seq === undefined ? { page: 'thread', threadId: parts[1] } : { page: 'thread', threadId: parts[1], seq };
  if (parts[0] === 'projects' && parts[1] === 'new') return { page: 'newProject' };
  if (parts[0] === 'projects' && parts[1] && parts[2] === 'threads') return { page: 'newThread', projectId: parts[1] };
  return { page: 'home' };
}

export const route = signal<Route>(parseRoute(location.hash));
addEventListener('hashchange', () => (route.value = parseRoute(location.hash)));

export function go(hash: string): void {
  location.hash = hash;
}

export const threadHref = (threadId: string, seq?: number) =>
  `#/threads/${encodeURIComponent(threadId)}${seq === undefined ? '' : `?seq=${seq}`}`;
