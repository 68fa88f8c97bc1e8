import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { readTrustedCa } from '../../link/tlsTrust';
import { envName, flagName } from '../../config/loadSettings';
import { certificateFilesOf, readCertificatePair, TlsSettingError } from './certificatePair';
import { watchCertificate, type ServedCertificate } from './certificateWatch';

export interface WebServerSettings {
  tlsCert?: string;
  tlsKey?: string;
  tlsCa?: string;
  tlsWatchMs: number;
}

export interface WebServer {
  /** Not listening yet, no request handler yet. Over TLS an https.Server: an http.Server to whoever uses it. */
  server: http.Server;
  scheme: 'http' | 'https';
  /** Set over TLS: the served certificate and its reload (SIGHUP, renewals on disk). */
  certificate?: ServedCertificate;
}

/**
 * The one server every route, the page, SSE and the WebSocket upgrades (daemon link, intake, replica link)
 * are served on: plain HTTP, or HTTPS when `tlsCert` and `tlsKey` are set (docs/api.md#https). Every setting is
 * checked before anything listens, and a bad one fails the start with a TlsSettingError naming it.
 */
export async function createWebServer(settings: WebServerSettings, log: (message: string) => void): Promise<WebServer> {
  // The CA is read again at each replica dial (replicaPeers.ts); read here so a bad file fails the start.
  if (settings.tlsCa !== undefined)
    await readTrustedCa(path.resolve(settings.tlsCa), `${flagName('tlsCa')} / ${envName('ATS_', 'tlsCa')}`).catch((error: Error) => {
      throw new TlsSettingError(error.message);
    });
  const files = certificateFilesOf(settings);
  if (!files) return { server: http.createServer(), scheme: 'http' };
  const pair = await readCertificatePair(files);
  const server = https.createServer({ cert: pair.cert, key: pair.key });
  const certificate = watchCertificate(server, files, pair, { pollMs: settings.tlsWatchMs, log });
  const renewal = settings.tlsWatchMs > 0 ? `files checked every ${settings.tlsWatchMs / 1000} s and on SIGHUP` : 'reloaded on SIGHUP';
  log(`TLS: serving ${pair.summary} (${renewal})`);
  return { server, scheme: 'https', certificate };
}
