import { expect } from 'chai';
import { z } from 'zod';
import { HostCommandError } from '../../src/protocol/hostErrors';
import { jsonRpcError } from '../../src/protocol/jsonRpc';
import { serveMethods } from '../../src/protocol/serveMethods';

describe('serveMethods: the one JSON-RPC gate (message in, response out)', () => {
  const calls: string[] = [];
  const logs: string[] = [];
  const invalid: unknown[] = [];
  const serve = serveMethods(
    {
      'echo.twice': {
        params: z.strictObject({ n: z.number().int() }),
        handle: ({ n }) => {
          calls.push(`twice ${n}`);
          return Promise.resolve(n * 2);
        },
        invalidParams: (request) => invalid.push(request.id),
      },
      'echo.fail': {
        params: z.strictObject({ how: z.enum(['host', 'mapped', 'bug']) }),
        handle: async ({ how }) => {
          if (how === 'host') throw new HostCommandError('not_found', 'no such thing', { what: 'thing' });
          if (how === 'mapped') throw new RangeError('mapped');
          throw new Error('secret detail');
        },
      },
    },
    {
      log: (message) => logs.push(message),
      admit: (request) => (request.id === 'closed' ? jsonRpcError(-32600, 'not now') : undefined),
      errorOf: (thrown) => (thrown instanceof RangeError ? jsonRpcError(-32050, 'out of range') : undefined),
      what: 'echo',
    },
  );
  beforeEach(() => {
    calls.length = 0;
    logs.length = 0;
    invalid.length = 0;
  });

  it('answers a valid request with its result and id', async () => {
    expect(await serve({ jsonrpc: '2.0', id: 1, method: 'echo.twice', params: { n: 21 } })).to.deep.equal({
      jsonrpc: '2.0',
      id: 1,
      result: 42,
    });
  });

  const notRequests: Array<[string, unknown, string | number | null]> = [
    ['a JSON string', 'x', null],
    ['a number', 42, null],
    ['null', null, null],
    ['an array', [{ jsonrpc: '2.0', id: 1, method: 'echo.twice' }], null],
    ['a notification (no id)', { jsonrpc: '2.0', method: 'echo.twice', params: { n: 1 } }, null],
    ['a request with an unknown key, its id readable', { jsonrpc: '2.0', id: 9, method: 'echo.twice', parms: {} }, 9],
  ];
  for (const [what, message, id] of notRequests) {
    it(`answers ${what} with -32600 and id ${String(id)}, running nothing`, async () => {
      const answer = await serve(message);
      expect(answer).to.deep.include({ jsonrpc: '2.0', id });
      expect(answer).to.have.nested.property('error.code', -32600);
      expect(calls).to.deep.equal([]);
    });
  }

  it('answers what `admit` refuses with its error, before the method is looked up', async () => {
    const answer = await serve({ jsonrpc: '2.0', id: 'closed', method: 'no.such', params: {} });
    expect(answer).to.deep.equal({ jsonrpc: '2.0', id: 'closed', error: { code: -32600, message: 'not now' } });
  });

  it('answers -32601 for a method it does not serve, an Object.prototype name included', async () => {
    for (const method of ['no.such', 'constructor', 'toString', '__proto__']) {
      const answer = await serve({ jsonrpc: '2.0', id: 2, method, params: {} });
      expect(answer, method).to.have.nested.property('error.code', -32601);
    }
  });

  it('answers -32602 with issue paths from the frame root, tells the method, and never runs its handler', async () => {
    const answer = await serve({ jsonrpc: '2.0', id: 3, method: 'echo.twice', params: { n: 1.5 } });
    expect(answer).to.have.nested.property('error.code', -32602);
    expect((answer as any).error.data.map((issue: { path: unknown }) => issue.path)).to.deep.equal([['params', 'n']]);
    expect(invalid).to.deep.equal([3]);
    expect(calls).to.deep.equal([]);
  });

  it('answers a HostCommandError with its rpc code and { hostCode, details }', async () => {
    const answer = await serve({ jsonrpc: '2.0', id: 4, method: 'echo.fail', params: { how: 'host' } });
    expect((answer as any).error).to.deep.equal({
      code: -32000,
      message: 'no such thing',
      data: { hostCode: 'not_found', details: { what: 'thing' } },
    });
  });

  it('answers what `errorOf` maps with that error, unlogged', async () => {
    const answer = await serve({ jsonrpc: '2.0', id: 5, method: 'echo.fail', params: { how: 'mapped' } });
    expect((answer as any).error).to.deep.equal({ code: -32050, message: 'out of range' });
    expect(logs).to.deep.equal([]);
  });

  it('answers any other throw with -32603 naming the method, and logs the cause the peer does not see', async () => {
    const answer = await serve({ jsonrpc: '2.0', id: 6, method: 'echo.fail', params: { how: 'bug' } });
    expect((answer as any).error).to.deep.equal({ code: -32603, message: 'echo echo.fail failed' });
    expect(logs.join('\n')).to.contain('secret detail');
  });

  it('calls handlers synchronously, in the order the messages were served', () => {
    for (const n of [1, 2, 3]) void serve({ jsonrpc: '2.0', id: n, method: 'echo.twice', params: { n } });
    expect(calls).to.deep.equal(['twice 1', 'twice 2', 'twice 3']);
  });
});
