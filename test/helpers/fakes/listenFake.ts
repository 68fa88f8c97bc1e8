import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListeningFake {
  origin: string;
  /** Lets every held answer finish (see the fakes' `slow` replies). */
  releaseSlow(): void;
  /** Releases held answers first, so no client waits on a closed server. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0: the one way every fake model server of the tests starts and stops. */
export async function listenFake(server: http.Server, openSlow: Set<() => void>): Promise<ListeningFake> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const releaseSlow = () => [...openSlow].forEach((release) => release());
  return {
    origin: `http://127.0.0.1:${port}`,
    releaseSlow,
    close: () =>
      new Promise<void>((resolve) => {
        releaseSlow();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
