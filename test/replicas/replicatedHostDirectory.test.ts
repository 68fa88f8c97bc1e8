import { expect } from 'chai';
import { NEVER } from 'rxjs';
import type { HostLink } from '../../src/server/hosts/hostLink';
import { createHostDirectory } from '../../src/server/hosts/hostDirectory';
import type { PresenceBoard } from '../../src/server/replicas/presenceBoard';
import type { ReplicaPeers } from '../../src/server/replicas/replicaPeers';
import { replicatedHostDirectory } from '../../src/server/replicas/replicatedHostDirectory';
import { openRegistry, type Registry } from '../../src/registry/registry';
import type { HostPlacement } from '../../src/store/postgres/replicaTables';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const HOST_ID = 'host_reconnected';

/** A board that, like the real one between a notification and its refresh, still holds the table's old row. */
function lateBoard(current: () => HostPlacement | undefined) {
  let seen: HostPlacement | undefined = { hostId: HOST_ID, replicaId: 'old', replicaUrl: 'http://127.0.0.1:1', online: false, leftAtMs: 1 };
  const board: PresenceBoard & { refreshes: number } = {
    refreshes: 0,
    placementOf: (hostId) => (hostId === HOST_ID ? seen : undefined),
    async refresh() {
      board.refreshes += 1;
      seen = current();
    },
  };
  return board;
}

/** Peers whose links answer every command with the replica URL they were dialled at. */
function answeringPeers(): ReplicaPeers {
  return {
    linkTo: (url, hello) =>
      ({ hello, closed$: NEVER, close: async () => undefined, request: async () => ({ servedBy: url }) }) as unknown as HostLink,
    close: async () => undefined,
  };
}

describe('a replica reaches a host that has just reconnected to another replica (presence board a notification behind)', () => {
  let registry: Registry;
  const tempDir = suiteTempDirs();

  beforeEach(async () => {
    registry = await openRegistry({ dataDir: await tempDir('ats-replicated-dir-'), fsync: 'off' });
    await registry.hosts.put({
      id: HOST_ID,
      name: 'h',
      platform: 'linux',
      protocolVersion: 1,
      providers: [],
      lastSeenAt: new Date(0).toISOString(),
    });
  });
  afterEach(() => registry.close());

  const directoryWith = (board: PresenceBoard) =>
    replicatedHostDirectory({
      local: createHostDirectory({ registry }),
      board,
      peers: answeringPeers(),
      registry,
      replicaId: 'this',
      hostCommandTimeoutMs: 1_000,
    });

  it('a command reads the presence table once more and goes to the replica the host is on now, instead of 502 host_offline', async () => {
    const board = lateBoard(() => ({
      hostId: HOST_ID,
      replicaId: 'restarted',
      replicaUrl: 'http://127.0.0.1:2',
      online: true,
      leftAtMs: null,
    }));
    const result = await directoryWith(board).call(HOST_ID, 'host.list_models', {});
    expect(result).to.deep.equal({ servedBy: 'http://127.0.0.1:2' });
    expect(board.refreshes).to.equal(1);
  });

  it('a host still offline after that read is 502 host_offline', async () => {
    const board = lateBoard(() => undefined);
    const failure = await directoryWith(board)
      .call(HOST_ID, 'host.list_models', {})
      .catch((error: unknown) => error);
    expect(failure).to.include({ status: 502, code: 'host_offline' });
    expect(board.refreshes).to.equal(1);
  });
});
