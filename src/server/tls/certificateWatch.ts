import type { Server as TlsServer } from 'node:tls';
import { readCertificatePair, stampsOf, type CertificateFiles, type CertificatePair } from './certificatePair';

export interface ServedCertificate {
  /** The pair new connections get. */
  served(): CertificatePair;
  /**
   * Reads the files again and serves them to new connections (open ones keep theirs); a pair that fails its
   * checks keeps the old one. Logs one line either way; resolves true when the new pair is served.
   */
  reload(why: string): Promise<boolean>;
  /** Stops the polling (the server's close does too). */
  close(): void;
}

/**
 * Serves a renewed certificate without a restart. `reload` is what SIGHUP calls; besides, every `pollMs` the
 * files' stamps (size, mtime, inode: a stat, which follows a symlink swapped by certbot where an inotify
 * watch would keep watching the old target) are compared with the served pair's. A change is loaded once
 * the stamps stayed the same for one more poll, so a renewal that writes the certificate and then the key
 * is not caught in between. A pair that failed is not tried (nor logged) again until its files change.
 */
export function watchCertificate(
  server: TlsServer,
  files: CertificateFiles,
  first: CertificatePair,
  options: { pollMs: number; log(message: string): void },
): ServedCertificate {
  let served = first;
  let failedStamps: string | undefined;
  let lastPoll = first.stamps;
  let queue: Promise<unknown> = Promise.resolve();

  const load = async (why: string, seen?: string): Promise<boolean> => {
    if (seen !== undefined && seen === served.stamps) return true; // a SIGHUP while this waited loaded them
    try {
      const pair = await readCertificatePair(files);
      server.setSecureContext({ cert: pair.cert, key: pair.key });
      served = pair;
      failedStamps = undefined;
      options.log(`TLS certificate reloaded (${why}): now serving ${pair.summary}`);
      return true;
    } catch (error) {
      failedStamps = await stampsOf(files);
      const reason = error instanceof Error ? error.message : String(error);
      options.log(`TLS certificate not reloaded (${why}): ${reason}; still serving ${served.summary}`);
      return false;
    }
  };
  // One load at a time: a SIGHUP during a poll's load waits for it, so the last word is the newest files'.
  const reload = (why: string, seen?: string) => {
    const done = queue.then(() => load(why, seen));
    queue = done;
    return done;
  };

  const poll = async () => {
    const stamps = await stampsOf(files);
    const settled = stamps === lastPoll;
    lastPoll = stamps;
    if (!settled || stamps === served.stamps || stamps === failedStamps) return;
    await reload('the files changed', stamps);
  };
  let polling = false;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => clearInterval(timer);
  // Polls while the server listens: a start that fails before listening leaves no timer behind.
  server.once('listening', () => {
    if (options.pollMs <= 0) return;
    timer = setInterval(() => {
      if (polling) return;
      polling = true;
      void poll().finally(() => (polling = false));
    }, options.pollMs);
    timer.unref();
  });
  server.once('close', stop);

  return {
    served: () => served,
    reload: (why) => reload(why),
    close: stop,
  };
}
