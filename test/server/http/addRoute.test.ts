import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { z } from 'zod';
import { decimalParam } from '../../../src/server/http/decimalParam';
import { errorMiddleware } from '../../../src/server/http/errorMiddleware';
import { IdParamsSchema } from '../../../src/server/http/idParams';
import { addRoute, apiRouter, routeSpecsOf } from '../../../src/server/http/routeSpec';

/** addRoute parses what its spec names before the handler runs, with the problems parseInput and readJsonBody give. */
describe('server/http: addRoute parses params, query and body from the route’s spec', () => {
  let server: Server;
  let url: string;
  const seen: unknown[] = [];

  before(async () => {
    const router = apiRouter({ maxBodyBytes: 64 });
    const responses = { 200: { description: 'what the handler got' } };
    addRoute(
      router,
      {
        method: 'get',
        path: '/things/:id',
        summary: 'params and query',
        tag: 't',
        params: z.strictObject({ id: z.string().startsWith('thg_') }),
        query: z.strictObject({ afterSeq: decimalParam.default(0) }),
        responses,
      },
      (ctx, input) => {
        seen.push(input);
        ctx.body = { id: input.params.id, afterSeq: input.query.afterSeq + 1 };
      },
    );
    addRoute(
      router,
      {
        method: 'post',
        path: '/things/:id',
        summary: 'a body',
        tag: 't',
        params: IdParamsSchema,
        body: z.strictObject({ name: z.string().min(1) }),
        responses,
      },
      (ctx, { params, body }) => void (ctx.body = { id: params.id, name: body.name }),
    );
    addRoute(
      router,
      {
        method: 'post',
        path: '/maybe',
        summary: 'a body that may be absent',
        tag: 't',
        body: z.strictObject({ token: z.string().optional() }),
        bodyMayBeAbsent: true,
        responses,
      },
      (ctx, { body }) => void (ctx.body = { body }),
    );
    const app = new Koa();
    app.use(errorMiddleware(() => {}));
    app.use(router.routes()).use(router.allowedMethods());
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  const post = (path: string, body: string, type = 'application/json') =>
    fetch(url + path, { method: 'POST', body, headers: { 'content-type': type } });
  const problemOf = async (response: Response) => {
    expect(response.headers.get('content-type')).to.equal('application/problem+json');
    return { status: response.status, ...(await response.json()) };
  };

  it('hands the handler the parsed values (a decimal query is a number, its default filled in)', async () => {
    expect(await (await fetch(`${url}/things/thg_1?afterSeq=41`)).json()).to.deep.equal({ id: 'thg_1', afterSeq: 42 });
    expect(await (await fetch(`${url}/things/thg_1`)).json()).to.deep.equal({ id: 'thg_1', afterSeq: 1 });
    expect(seen.at(-1)).to.deep.equal({ params: { id: 'thg_1' }, query: { afterSeq: 0 }, body: undefined });
  });

  it('answers 400 invalid_params with the issues when a path param fails its schema, before the handler runs', async () => {
    const before = seen.length;
    const problem = await problemOf(await fetch(`${url}/things/nope`));
    expect(problem).to.deep.include({ status: 400, code: 'invalid_params' });
    expect(problem.issues.map((issue: { path: string[] }) => issue.path.join('.'))).to.deep.equal(['id']);
    expect(seen.length).to.equal(before);
  });

  it('answers 400 invalid_query for a query failing its schema', async () => {
    expect(await problemOf(await fetch(`${url}/things/thg_1?afterSeq=0x10`))).to.deep.include({ status: 400, code: 'invalid_query' });
    expect(await problemOf(await fetch(`${url}/things/thg_1?other=1`))).to.deep.include({ status: 400, code: 'invalid_query' });
  });

  it('reads the body as readJsonBody does: 400 invalid_body, invalid_json, 413 body_too_large, 415', async () => {
    expect(await (await post('/things/thg_1', '{"name":"n"}')).json()).to.deep.equal({ id: 'thg_1', name: 'n' });
    expect(await problemOf(await post('/things/thg_1', '{"name":""}'))).to.deep.include({ status: 400, code: 'invalid_body' });
    expect(await problemOf(await post('/things/thg_1', '{"name":'))).to.deep.include({ status: 400, code: 'invalid_json' });
    const tooLarge = await problemOf(await post('/things/thg_1', JSON.stringify({ name: 'x'.repeat(100) })));
    expect(tooLarge).to.deep.include({ status: 413, code: 'body_too_large', maxBytes: 64 });
    expect(await problemOf(await post('/things/thg_1', 'name=n', 'text/plain'))).to.deep.include({
      status: 415,
      code: 'unsupported_media_type',
    });
    expect(await problemOf(await fetch(`${url}/things/thg_1`, { method: 'POST' }))).to.deep.include({ status: 415 });
  });

  it('reads an absent body as {} only where the spec allows it, and still checks a present one', async () => {
    expect(await (await fetch(`${url}/maybe`, { method: 'POST' })).json()).to.deep.equal({ body: {} });
    expect(await (await post('/maybe', '{"token":"t"}')).json()).to.deep.equal({ body: { token: 't' } });
    expect(await problemOf(await post('/maybe', '{"other":1}'))).to.deep.include({ status: 400, code: 'invalid_body' });
  });

  it('refuses at registration a path whose params the spec does not name, and a body on a router without a limit', () => {
    const spec = { method: 'get', summary: 's', tag: 't', responses: {} } as const;
    expect(() => addRoute(apiRouter(), { ...spec, path: '/x/:id' }, () => {})).to.throw(/params schema names \[\], the path \[id\]/);
    expect(() => addRoute(apiRouter(), { ...spec, path: '/x/:key', params: IdParamsSchema }, () => {})).to.throw(
      /\[id\], the path \[key\]/,
    );
    const bodyRoute = { ...spec, method: 'post', path: '/x', body: z.object({}) } as const;
    expect(() => addRoute(apiRouter(), bodyRoute, () => {})).to.throw(/apiRouter\(limits\)/);
    const router = apiRouter();
    addRoute(router, { ...spec, path: '/x/:id', params: IdParamsSchema }, () => {});
    expect(routeSpecsOf(router).map((route) => route.path)).to.deep.equal(['/x/:id']);
  });
});
