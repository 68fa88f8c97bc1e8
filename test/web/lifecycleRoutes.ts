import type { BrowserContext, Page, Route } from 'playwright-core';
import { from, lastValueFrom } from 'rxjs';
import type { NewThreadEvent } from '../../src/protocol/threadEvents';
import { publishingStore } from '../../src/server/sse/publishingStore';
import type { RunningServer } from '../../src/server/startServer';

export interface SeenCall {
  method: string;
  path: string;
  body: unknown;
}

type AgentState = 'stopped' | 'starting' | 'running';
const LIFECYCLE_FIELDS = ['title', 'archived', 'keepAgentRunning'] as const;
const THREADS = /^\/api\/v1\/threads(?:\/([^/]+))?$/;

/**
 * Issue 28's routes answered at the page's edge, as the server will answer them, over a real server that
 * does not have them yet: `PATCH /threads/:id` with title / archived / keepAgentRunning stores the change in
 * the registry and appends its `thread/updated` row (through the store that publishes to SSE, so every tab
 * sees it); `DELETE` answers 204 and the id 404 afterwards; `GET /threads` leaves archived threads out unless
 * `?archived=true`; every view carries `archived`, `keepAgentRunning` and `agent`. A permission-mode change
 * goes on to the real server. `seen` records what the page sent.
 */
export async function serveLifecycle(context: BrowserContext, server: RunningServer) {
  const seen: SeenCall[] = [];
  const deleted = new Set<string>();
  const agents = new Map<string, AgentState>();
  const store = publishingStore(server.store, server.hub);
  const withLifecycle = (view: Record<string, unknown>) => ({
    archived: false,
    keepAgentRunning: false,
    ...view,
    agent: agents.get(String(view.id)) ?? 'stopped',
  });
  const notFound = (route: Route, id: string) =>
    route.fulfill({
      status: 404,
      contentType: 'application/problem+json',
      body: JSON.stringify({ type: 'about:blank', title: 'Not found', status: 404, code: 'not_found', detail: `No thread ${id}.` }),
    });
  /** The real server's answer, asked with the bearer token as curl would. */
  const realGet = async <T>(pathname: string): Promise<T> => {
    const answer = await fetch(`${server.url}/api/v1${pathname}`, { headers: { authorization: `Bearer ${server.token}` } });
    return (await answer.json()) as T;
  };
  const realView = async (id: string) => withLifecycle(await realGet<Record<string, unknown>>(`/threads/${encodeURIComponent(id)}`));

  const handle = async (route: Route) => {
    const request = route.request();
    const url = new URL(request.url());
    const id = THREADS.exec(url.pathname)?.[1] && decodeURIComponent(THREADS.exec(url.pathname)![1]!);
    const method = request.method();
    if (method !== 'GET') seen.push({ method, path: url.pathname, body: request.postDataJSON() });
    if (!id && method === 'GET') {
      const archived = url.searchParams.get('archived') === 'true';
      // The real server lists archived threads apart (`?archived=true`) now that it has them: ask for both.
      const all = [
        ...(await realGet<Array<Record<string, unknown>>>('/threads')),
        ...(await realGet<Array<Record<string, unknown>>>('/threads?archived=true')),
      ];
      const views = all
        .filter((view) => !deleted.has(String(view.id)))
        .map(withLifecycle)
        .filter((view) => view.archived === archived);
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(views) });
    }
    if (!id) return route.continue();
    if (deleted.has(id)) return notFound(route, id);
    if (method === 'GET') return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(await realView(id)) });
    if (method === 'DELETE') {
      deleted.add(id);
      return route.fulfill({ status: 204, body: '' });
    }
    const patch = (request.postDataJSON() ?? {}) as Record<string, unknown>;
    const changed = Object.fromEntries(LIFECYCLE_FIELDS.filter((field) => field in patch).map((field) => [field, patch[field]]));
    if (method !== 'PATCH' || Object.keys(changed).length === 0) return route.continue();
    const record = (await server.registry.threads.get(id))!;
    await server.registry.threads.put({ ...record, ...changed });
    await appendThreadUpdated(store, id, changed);
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(await realView(id)) });
  };
  await context.route((url) => THREADS.test(url.pathname), handle);
  return {
    seen,
    /** What `agent` the views say from now on (the list's poll carries it to the header). */
    setAgent: (threadId: string, state: AgentState) => void agents.set(threadId, state),
    /** The thread is deleted by another client: its id answers 404 from now on. */
    forget: (threadId: string) => void deleted.add(threadId),
  };
}

/** A `thread/updated` row as the server appends it for a change: thread-scoped, only the changed fields. */
export async function appendThreadUpdated(
  store: ReturnType<typeof publishingStore>,
  threadId: string,
  changed: Record<string, unknown>,
): Promise<void> {
  const row = {
    threadId,
    type: 'thread/updated',
    turnId: null,
    scope: { kind: 'thread' },
    data: { providerThreadId: threadId, ...changed },
  };
  await lastValueFrom(from(store.append([row as NewThreadEvent])));
}

/**
 * Holds a page's SSE stream of `threadId` until `send()`, then answers it with the `deleted` event the
 * server sends its readers before closing their streams: a delete seen by a tab other than the deleting one.
 */
export async function holdStreamUntilDeleted(page: Page, threadId: string): Promise<{ send(): void; opened: Promise<void> }> {
  let send!: () => void;
  const released = new Promise<void>((resolve) => (send = resolve));
  let opened!: () => void;
  const openedPromise = new Promise<void>((resolve) => (opened = resolve));
  await page.route(`**/api/v1/threads/${threadId}/events/stream*`, async (route) => {
    opened();
    await released;
    await route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      body: `event: deleted\ndata: ${JSON.stringify({ threadId })}\n\n`,
    });
  });
  return { send, opened: openedPromise };
}
