import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Problem } from '../../../src/server/http/problem';
import { errorMiddleware } from '../../../src/server/http/errorMiddleware';
import { answerDiffInParts, type DiffInParts } from '../../../src/server/review/streamedDiff';
import type { DiffFile, GitDiffResult } from '../../../src/protocol/hostGitCommands';

const file = (name: string): DiffFile => ({ path: name, status: 'added', binary: false, additions: 1, deletions: 0, hunks: [] });
const result = (files: DiffFile[]): GitDiffResult => ({ scope: 'uncommitted', base: 'abc', head: 'worktree', files, truncated: false });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('a diff answered in parts over HTTP (answerDiffInParts)', () => {
  let server: Server;
  let diff: DiffInParts;
  before(async () => {
    const app = new Koa();
    app.silent = true;
    app.use(errorMiddleware(() => undefined));
    app.use((ctx) => answerDiffInParts(ctx, (onFiles) => diff(onFiles)));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
  });
  after(() => new Promise((resolve) => server.close(resolve)));
  const get = () => fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);

  it('parts, then the rest: one JSON answer with every file in order', async () => {
    diff = async (onFiles) => {
      onFiles([file('a'), file('b')]);
      await tick();
      onFiles([file('c')]);
      await tick();
      return result([file('d')]);
    };
    const response = await get();
    expect(response.status).to.equal(200);
    expect(await response.json()).to.deep.equal(result(['a', 'b', 'c', 'd'].map(file)));
  });

  it('no parts: the answer as it is', async () => {
    diff = async () => result([file('only')]);
    const response = await get();
    expect(response.headers.get('content-length')).to.not.equal(null);
    expect(await response.json()).to.deep.equal(result([file('only')]));
  });

  it('refused before any part: the problem with its status and code', async () => {
    diff = async () => {
      await tick();
      throw new Problem(404, 'not_found', 'no turn t1 recorded');
    };
    const response = await get();
    expect(response.status).to.equal(404);
    expect(await response.json()).to.deep.include({ code: 'not_found' });
  });

  it('failed after a part: the connection is cut, so the client never takes a diff that lacks files for a whole one', async () => {
    diff = async (onFiles) => {
      onFiles([file('a')]);
      await tick();
      throw new Problem(502, 'host_offline', 'the host went away');
    };
    const response = await get();
    expect(response.status).to.equal(200);
    const body = await response.text().then(
      (text) => ({ text }),
      (error: Error) => ({ error }),
    );
    expect(body).to.have.property('error');
  });
});
