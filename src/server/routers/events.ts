import type Router from '@koa/router';
import { map } from 'rxjs';
import { z } from 'zod';
import { StoredThreadEventSchema } from '../../protocol/threadEvents';
import { createEventPageReader } from '../eventPages/eventPageReader';
import { forwardWindowOf } from '../eventPages/pageWindow';
import { decimalParam } from '../http/decimalParam';
import { IdParamsSchema } from '../http/idParams';
import { mustGet } from '../http/lookups';
import { parseInput } from '../http/parseInput';
import { addRoute, apiRouter } from '../http/routeSpec';
import { sseDeletedText } from '../sse/sseEventText';
import { streamSse } from '../sse/sseResponse';
import { threadRowsFrom } from '../sse/threadRowsFrom';
import type { AppDeps } from './appDeps';

/** Events of a thread: a page by cursor, or a live SSE stream from a cursor. */
export function eventsRouter(deps: AppDeps): Router {
  const router = apiRouter();
  const { eventsPageDefault, eventsPageMax, sseHeartbeatMs, sseMaxBufferedBytes, sseStallMs } = deps.config;
  const PageQuerySchema = z.strictObject({
    afterSeq: decimalParam.optional().describe('Rows with seq > afterSeq (forwards; the default, from 0)'),
    beforeSeq: decimalParam
      .pipe(z.number().min(1))
      .optional()
      .describe('The `limit` rows just before this seq, in ascending order (paging backwards)'),
    tail: z.enum(['true', 'false']).optional().describe('`true`: the last `limit` rows, in ascending order'),
    limit: decimalParam.pipe(z.number().min(1).max(eventsPageMax)).default(eventsPageDefault),
  });
  const StreamQuerySchema = z.strictObject({ afterSeq: decimalParam.optional() });

  const tag = 'events';
  const readPage = createEventPageReader(deps.store);
  addRoute(
    router,
    {
      method: 'get',
      path: '/threads/:id/events',
      summary: 'A page of the thread’s events: after a cursor, before one, or the last rows',
      tag,
      params: IdParamsSchema,
      query: PageQuerySchema,
      responses: { 200: { description: 'Rows in seq order', schema: z.array(StoredThreadEventSchema) } },
    },
    async (ctx, { params, query }) => {
      const thread = await mustGet(deps.registry.threads, params.id, 'thread');
      const request = { ...query, tail: query.tail === 'true' };
      const window = await forwardWindowOf(request, () => deps.store.lastSeq(thread.id));
      const page = window.limit === 0 ? '[]' : await readPage(thread.id, window.afterSeq, window.limit);
      // The type set first stays: a string body would otherwise go out as text/plain.
      ctx.type = 'application/json';
      ctx.body = page;
    },
  );

  addRoute(
    router,
    {
      method: 'get',
      path: '/threads/:id/events/stream',
      summary: 'The thread’s events live (SSE), resuming after afterSeq or Last-Event-ID',
      tag,
      params: IdParamsSchema,
      query: StreamQuerySchema,
      responses: { 200: { description: 'Server-Sent Events: `id: <seq>`, `data: <row>`', contentType: 'text/event-stream' } },
    },
    async (ctx, { params, query }) => {
      // A browser reconnecting sends Last-Event-ID with the URL it first opened; the header is the newer cursor.
      const lastEventId = ctx.get('last-event-id');
      const afterSeq = lastEventId ? parseInput(decimalParam, lastEventId, 'query') : (query.afterSeq ?? 0);
      const thread = await mustGet(deps.registry.threads, params.id, 'thread');
      // A catch-up page is about as big as what the response may hold unsent (so a slow reader costs two of them).
      const source = { store: deps.store, live$: deps.hub.rowsOf$(thread.id), pageSize: eventsPageMax, pageChars: sseMaxBufferedBytes };
      ctx.respond = false;
      await streamSse(ctx.res, (demand) => threadRowsFrom(source, thread.id, afterSeq, demand), {
        heartbeatMs: sseHeartbeatMs,
        retryMs: 1000,
        maxBufferedBytes: sseMaxBufferedBytes,
        stallMs: sseStallMs,
        farewell$: deps.hub.deleted$(thread.id).pipe(map(() => sseDeletedText(thread.id))),
      });
    },
  );

  return router;
}
