import { startDaemonProcess, type DaemonProcess } from '../../helpers/hosts/daemonProcess';
import { eventually } from '../../helpers/server/eventually';
import type { TestServer } from '../../helpers/server/harness';

/** Daemon processes of one suite, dialling `server` fast; `stopAll` in the suite's `after`. */
export function daemonRunner(server: () => string) {
  const running: DaemonProcess[] = [];
  return {
    async run(args: string[], via: 'npm' | 'node' = 'node'): Promise<DaemonProcess> {
      const daemon = await startDaemonProcess(
        ['--server', server(), '--agent-providers', 'none', '--reconnect-initial-ms', '50', '--reconnect-max-ms', '300', ...args],
        { via },
      );
      running.push(daemon);
      return daemon;
    },
    stopAll: () => Promise.all(running.map((daemon) => daemon.kill('SIGTERM'))),
  };
}

/** Resolves once `GET /hosts` shows the host online (or offline, or not at all with `want: 'gone'`). */
export function hostListed(t: TestServer, hostId: string, want: boolean | 'gone', timeoutMs = 20_000): Promise<true> {
  return eventually(
    async () => {
      const host = ((await t.json('/hosts')) as { id: string; online: boolean }[]).find((h) => h.id === hostId);
      return (want === 'gone' ? host === undefined : host?.online === want) ? true : undefined;
    },
    `${hostId} ${String(want)}`,
    timeoutMs,
  );
}

/** A fresh one-time code, as the page's button makes it. */
export async function enrollmentCode(t: TestServer): Promise<{ code: string; expiresAt: number }> {
  return t.json('/hosts/enrollments', { method: 'POST' });
}
