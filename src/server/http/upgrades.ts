import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** One WebSocket endpoint on the HTTP server: the agent intake, or the link of remote host daemons. */
export interface UpgradeRoute {
  path: string;
  /** Checked before the handshake; a refused peer gets a plain 401 and a closed socket. */
  authorize(req: IncomingMessage): boolean;
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** Routes `upgrade` requests by path; anything else is answered 404 and closed, never left hanging. */
export function attachUpgrades(server: Server, routes: readonly UpgradeRoute[]): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.find((candidate) => candidate.path === pathname);
    if (!route) return refuse(socket, 404, 'Not Found');
    if (!route.authorize(req)) return refuse(socket, 401, 'Unauthorized');
    route.handle(req, socket, head);
  });
}

function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
