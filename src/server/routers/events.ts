import Router from '@koa/router';
import { z } from 'zod';
import type { AppDeps } from './appDeps';
import { mustGet } from '../http/lookups';
import { parseInput } from '../http/parseInput';
import { createPageTexts } from './eventsPageTexts';
import { streamSse } from '../sse/sseResponse';
import { threadRowsFrom } from '../sse/threadRowsFrom';
import { decimalParam } from './decimalParam';
import { addRoute } from './routeSpec';
import { StoredThreadEventSchema } from '../../protocol/threadEvents';
import { pageJson } from '../../store/pageJson';

/** Events of a thread: a page by cursor, or a live SSE stream from a cursor. */
export function eventsRouter(deps: AppDeps): Router {
  const router = new Router();
  const { eventsPageDefault, eventsPageMax, sseHeartbeatMs, sseMaxBufferedBytes, sseStallMs } = deps.config;
  const PageQuerySchema = z.strictObject({
    afterSeq: decimalParam.default(0),
    limit: decimalParam.pipe(z.number().min(1).max(eventsPageMax)).default(eventsPageDefault),
  });
  const StreamQuerySchema = z.strictObject({ afterSeq: decimalParam.optional() });

  const tag = 'events';
  const pageTexts = createPageTexts();
  addRoute(
    router,
    {
      method: 'get',
      path: '/threads/:id/events',
      summary: 'A page of the thread’s events after a cursor',
      tag,
      query: PageQuerySchema,
      responses: { 200: { description: 'Rows in seq order', schema: z.array(StoredThreadEventSchema) } },
    },
    async (ctx) => {
      const { afterSeq, limit } = parseInput(PageQuerySchema, ctx.query, 'query');
      const thread = await mustGet(deps.registry.threads, ctx.params.id!, 'thread');
      // The text Koa would make of the rows (JSON.stringify), made by the store from its own row texts where it
      // can, and kept for a full page; the type set first stays (a string body would otherwise go out as text/plain).
      ctx.type = 'application/json';
      const kept = pageTexts.get(thread.id, afterSeq, limit);
      if (kept) return void (ctx.body = kept);
      const page = await pageJson(deps.store, thread.id, { afterSeq, limit });
      if (page.rows === limit) pageTexts.keep(thread.id, afterSeq, limit, page.json);
      ctx.body = page.json;
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/threads/:id/events/stream',
      summary: 'The thread’s events live (SSE), resuming after afterSeq or Last-Event-ID',
      tag,
      query: StreamQuerySchema,
      responses: { 200: { description: 'Server-Sent Events: `id: <seq>`, `data: <row>`', contentType: 'text/event-stream' } },
    },
    async (ctx) => {
      const query = parseInput(StreamQuerySchema, ctx.query, 'query');
      // A browser reconnecting sends Last-Event-ID with the URL it first opened; the header is the newer cursor.
      const lastEventId = ctx.get('last-event-id');
      const afterSeq = lastEventId ? parseInput(decimalParam, lastEventId, 'query') : (query.afterSeq ?? 0);
      const thread = await mustGet(deps.registry.threads, ctx.params.id!, 'thread');
      const source = { store: deps.store, live$: deps.hub.rowsOf$(thread.id), pageSize: eventsPageMax };
      ctx.respond = false;
      await streamSse(ctx.res, (demand) => threadRowsFrom(source, thread.id, afterSeq, demand), {
        heartbeatMs: sseHeartbeatMs,
        retryMs: 1000,
        maxBufferedBytes: sseMaxBufferedBytes,
        stallMs: sseStallMs,
      });
    },
  );

  return router;
}
