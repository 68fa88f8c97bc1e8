import { expect } from 'chai';
import { createHostDispatcher, type HostHandlers } from '../../src/daemon/hostDispatcher';
import { HostCommandError } from '../../src/protocol/hostErrors';

const unused = async (): Promise<never> => {
  throw new Error('not used in this test');
};

/** Handlers where only `host.resolve_path` and `thread.status` do something. */
function handlers(overrides: Partial<HostHandlers>): HostHandlers {
  const all = {} as Record<string, unknown>;
  for (const method of [
    'host.list_paths',
    'host.list_files',
    'host.read_file',
    'host.browse_directory',
    'host.read_file_relative',
    'host.resolve_path',
    'thread.open',
    'thread.prompt',
    'thread.stop',
    'thread.ingest',
    'thread.status',
  ]) {
    all[method] = unused;
  }
  return { ...(all as HostHandlers), ...overrides };
}

describe('host daemon: JSON-RPC dispatcher of the contract', () => {
  const logs: string[] = [];
  const dispatch = createHostDispatcher(
    handlers({
      'host.resolve_path': async ({ path }) => {
        if (path === '/missing') throw new HostCommandError('not_found', 'no such path: /missing');
        if (path === '/boom') throw new Error('secret internal detail');
        return { realPath: path, kind: 'directory' };
      },
      'thread.status': async ({ threadId }) => {
        if (threadId === 'thr_refused') throw new HostCommandError('thread_not_open', 'not open');
        return { status: 'idle', agent: 'stopped', pendingApprovalIds: [], lastTurnStatus: null };
      },
    }),
    (message) => logs.push(message),
  );

  it('runs a valid request and answers with its id', async () => {
    expect(await dispatch({ jsonrpc: '2.0', id: 7, method: 'host.resolve_path', params: { path: '/tmp' } })).to.deep.equal({
      jsonrpc: '2.0',
      id: 7,
      result: { realPath: '/tmp', kind: 'directory' },
    });
  });

  it('answers -32600 for a message that is not a JSON-RPC request', async () => {
    const response = await dispatch({ jsonrpc: '2.0', method: 'host.resolve_path' });
    expect(response).to.have.nested.property('error.code', -32600);
  });

  it('answers -32601 for a method outside the contract', async () => {
    const response = await dispatch({ jsonrpc: '2.0', id: 1, method: 'host.format_disk', params: {} });
    expect(response).to.deep.include({ id: 1 });
    expect(response).to.have.nested.property('error.code', -32601);
  });

  it('answers -32602 with zod issues for params failing the contract', async () => {
    const response = await dispatch({ jsonrpc: '2.0', id: 2, method: 'thread.status', params: { threadId: 'nope' } });
    expect(response).to.have.nested.property('error.code', -32602);
    expect((response as any).error.data[0].path).to.deep.equal(['params', 'threadId']);
  });

  it('carries a host file refusal as error data with its stable hostCode', async () => {
    const response = await dispatch({ jsonrpc: '2.0', id: 3, method: 'host.resolve_path', params: { path: '/missing' } });
    expect((response as any).error).to.deep.include({ code: -32000, data: { hostCode: 'not_found' } });
    const refused = await dispatch({ jsonrpc: '2.0', id: 4, method: 'thread.status', params: { threadId: 'thr_refused' } });
    expect((refused as any).error.data).to.deep.equal({ hostCode: 'thread_not_open' });
  });

  it('answers an unexpected failure with -32603 and logs it, without leaking the message to the peer', async () => {
    const response = await dispatch({ jsonrpc: '2.0', id: 5, method: 'host.resolve_path', params: { path: '/boom' } });
    expect((response as any).error.code).to.equal(-32603);
    expect(JSON.stringify(response)).not.to.contain('secret internal detail');
    expect(logs.join('\n')).to.contain('secret internal detail');
  });
});
