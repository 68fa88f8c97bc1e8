import { expect } from 'chai';
import { lastValueFrom } from 'rxjs';
import { HostRequestError } from '../../../src/protocol/hostErrors';
import { createHostRequester } from '../../../src/server/hosts/hostLink';
import { connectInProcess } from '../../../src/server/hosts/inProcessLink';
import { HOST_DAEMON_PROTOCOL_VERSION } from '../../../src/protocol/protocolVersion';
import { openRegistry } from '../../../src/registry/registry';
import { createHostDirectory, ProtocolMismatch } from '../../../src/server/hosts/hostDirectory';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const hello = (protocolVersion = HOST_DAEMON_PROTOCOL_VERSION) => ({
  protocolVersion,
  hostId: 'host_test',
  name: 'test',
  platform: 'test',
  providers: [],
});

async function failureOf(promise: Promise<unknown>): Promise<HostRequestError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(HostRequestError);
    return error as HostRequestError;
  }
  throw new Error('expected a HostRequestError');
}

describe('host link: the caller half of the contract, over any transport', () => {
  it('validates params before sending: nothing malformed reaches the host', async () => {
    let sent = 0;
    const request = createHostRequester(async () => sent++, 1000);
    const error = await failureOf(request('host.read_file', { path: 'relative' }));
    expect(error.failure).to.deep.include({ kind: 'refused', hostCode: 'invalid_params' });
    expect(sent).to.equal(0);
  });

  it('rejects a result that does not match the contract (bad_result)', async () => {
    const request = createHostRequester(async (message) => ({ jsonrpc: '2.0', id: message.id, result: { realPath: 42 } }), 1000);
    expect((await failureOf(request('host.resolve_path', { path: '/x' }))).failure.kind).to.equal('bad_result');
  });

  it('times out a request the host never answers', async () => {
    const request = createHostRequester(() => new Promise(() => {}), 20);
    expect((await failureOf(request('thread.status', { threadId: 'thr_a' }))).failure).to.deep.equal({ kind: 'timeout', timeoutMs: 20 });
  });

  it('an in-process link is offline once closed, and says so on closed$', async () => {
    const link = connectInProcess(
      { hello: hello(), dispatch: async () => ({ jsonrpc: '2.0', id: 1, result: { status: 'idle' } }) },
      { timeoutMs: 1000 },
    );
    const closed = lastValueFrom(link.closed$, { defaultValue: undefined });
    await link.close();
    await closed;
    expect((await failureOf(link.request('thread.status', { threadId: 'thr_a' }))).failure.kind).to.equal('offline');
  });

  it('the host directory refuses a daemon with another protocol version, naming both', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'ats-link-'));
    const registry = await openRegistry({ dataDir });
    const hosts = createHostDirectory({ registry });
    const link = connectInProcess(
      { hello: hello(149), dispatch: async () => ({ jsonrpc: '2.0', id: 1, result: null }) },
      { timeoutMs: 1000 },
    );
    let refused: unknown;
    await hosts.attach(link).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(ProtocolMismatch);
    expect(String((refused as Error).message))
      .to.contain('149')
      .and.contain(String(HOST_DAEMON_PROTOCOL_VERSION));
    expect(await hosts.list()).to.deep.equal([]);
    await registry.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
