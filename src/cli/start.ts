import { existsSync } from 'node:fs';
import path from 'node:path';
import { defaultDataDir } from '../config/defaultDataDir';
import { ConfigError, loadConfig } from '../config/serverConfig';
import { createProviders } from '../daemon/providerFactories';
import { startServer } from '../server/startServer';

/**
 * `npm start [-- --port 0 --data-dir ~/ats-data …]`: the API, the intake and an embedded daemon for this
 * machine. Prints `listening on http://HOST:PORT` first (`https://` with ATS_TLS_CERT / ATS_TLS_KEY; scripts
 * wait for that line), then the token's home, then the page's sign-in URL: the token rides in the fragment,
 * which a browser never sends to a server. Over TLS, SIGHUP reloads the certificate files.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  const log = (message: string) => console.error(message);
  warnOfOldDataDir(config.dataDir, log);
  const providers = createProviders(config.agentProviders, log, config.agentIsolation);
  const server = await startServer({ config, providers, log });
  console.log(`listening on ${server.url}`);
  console.log(server.tokenFile ? `token in ${server.tokenFile}` : 'token from ATS_TOKEN');
  console.log(
    `data in ${config.dataDir}; embedded host ${server.hostId || 'none'};${server.replicaId ? ` replica ${server.replicaId};` : ''} agent providers: ${providers.map((p) => p.id).join(', ') || 'none'}`,
  );
  console.log(`open ${server.url}/#token=${encodeURIComponent(server.token)}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: the pi SDK loads signal-exit, which re-raises a signal nobody else listens to, and a
  // handler removed after its first call would let it kill the process halfway through the shutdown.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Only over TLS: without a certificate to reload, SIGHUP keeps its usual meaning (the terminal went away).
  const certificate = server.certificate;
  if (certificate) process.on('SIGHUP', () => void certificate.reload('SIGHUP'));
}

/** Before issue 29 the data dir defaulted to `./.data`: say where the threads went instead of looking empty. */
function warnOfOldDataDir(dataDir: string, log: (message: string) => void): void {
  const old = path.resolve('.data');
  if (dataDir !== defaultDataDir() || existsSync(dataDir) || !existsSync(path.join(old, 'token'))) return;
  log(`${old} holds data from before the default data dir moved to ${dataDir}: start with ATS_DATA_DIR=./.data, or move it there`);
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError ? error.message : `failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
