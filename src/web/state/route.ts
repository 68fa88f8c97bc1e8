import { signal } from '@preact/signals';

export type Route =
  { page: 'home' } | { page: 'newProject' } | { page: 'newThread'; projectId: string } | { page: 'thread'; threadId: string };

/** Hash routes (`#/threads/thr_…`): the server serves one index.html and needs no fallback for deep links. */
export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'threads' && parts[1]) return { page: 'thread', threadId: parts[1] };
  if (parts[0] === 'projects' && parts[1] === 'new') return { page: 'newProject' };
  if (parts[0] === 'projects' && parts[1] && parts[2] === 'threads') return { page: 'newThread', projectId: parts[1] };
  return { page: 'home' };
}

export const route = signal<Route>(parseRoute(location.hash));
addEventListener('hashchange', () => (route.value = parseRoute(location.hash)));

export function go(hash: string): void {
  location.hash = hash;
}

export const threadHref = (threadId: string) => `#/threads/${encodeURIComponent(threadId)}`;
