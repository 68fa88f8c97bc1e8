import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ListeningFake {
  origin: string;
  /** Lets every held answer finish (see the fakes' `slow` replies). */
  releaseSlow(): void;
  /** Releases held answers first, so no client waits on a closed server. */
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0 (or the one given): the one way every fake server of the tests starts and stops. */
export async function listenFake(server: http.Server, openSlow: Set<() => void>, port = 0): Promise<ListeningFake> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: listening } = server.address() as AddressInfo;
  const releaseSlow = () => [...openSlow].forEach((release) => release());
  return {
    origin: `http://127.0.0.1:${listening}`,
    releaseSlow,
    close: () =>
      new Promise<void>((resolve) => {
        releaseSlow();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
