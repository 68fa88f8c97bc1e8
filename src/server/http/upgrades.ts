import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** One WebSocket endpoint on the HTTP server: the agent intake, or the link of remote host daemons. */
export interface UpgradeRoute {
  path: string;
  /**
   * Checked before the handshake; a refused peer gets a plain 401 and a closed socket. May look the caller
   * up (a host credential lives in the registry); a lookup that fails refuses too.
   */
  authorize(req: IncomingMessage): boolean | Promise<boolean>;
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** Routes `upgrade` requests by path; anything else is answered 404 and closed, never left hanging. */
export function attachUpgrades(server: Server, routes: readonly UpgradeRoute[]): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.find((candidate) => candidate.path === pathname);
    if (!route) return refuse(socket, 404, 'Not Found');
    const authorized = route.authorize(req);
    if (authorized === true) return route.handle(req, socket, head);
    if (authorized === false) return refuse(socket, 401, 'Unauthorized');
    // A peer that resets while it is looked up must not throw from a socket nobody listens to yet.
    socket.on('error', () => {});
    authorized.then(
      (yes) => (socket.destroyed ? undefined : yes ? route.handle(req, socket, head) : refuse(socket, 401, 'Unauthorized')),
      () => refuse(socket, 401, 'Unauthorized'),
    );
  });
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
