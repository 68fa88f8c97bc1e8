import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of the daemon link, to break the network the way the world does: `cut` resets every
 * connection and refuses new ones (a cable pulled, a server gone); `freeze` keeps connections open but
 * passes no byte (a laptop lid closed, a NAT entry dropped), which only heartbeats can notice.
 */
export interface LinkProxy {
  /** `http://127.0.0.1:PORT` to give a daemon as its server. */
  url: string;
  cut(): void;
  freeze(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startLinkProxy(targetUrl: string): Promise<LinkProxy> {
  const target = new URL(targetUrl);
  const pairs = new Set<[net.Socket, net.Socket]>();
  let mode: 'open' | 'cut' | 'frozen' = 'open';

  const server = net.createServer((client) => {
    if (mode === 'cut') return client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
    if (mode === 'frozen') freezePair(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const freezePair = ([client, upstream]: [net.Socket, net.Socket]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      mode = 'cut';
      for (const [client, upstream] of [...pairs]) {
        client.resetAndDestroy();
        upstream.resetAndDestroy();
      }
    },
    freeze() {
      mode = 'frozen';
      pairs.forEach(freezePair);
    },
    restore() {
      mode = 'open';
      // Frozen connections stay dead: both ends will have given up on them by now.
      for (const [client, upstream] of [...pairs]) {
        client.destroy();
        upstream.destroy();
      }
    },
    async close() {
      for (const [client, upstream] of [...pairs]) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
