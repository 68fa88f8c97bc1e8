import { createProviders } from '../daemon/providerFactories';
import { DaemonConfigError, loadDaemonConfig } from '../config/daemonConfig';
import { linkUrls } from '../daemon/remote/daemonLinkClient';
import { startRemoteDaemon } from '../daemon/remote/startRemoteDaemon';
import { EnrollmentRefused } from '../daemon/remote/enrollHost';
import { NoHostCredential } from '../daemon/remote/linkCredential';

/**
 * `npm run daemon -- --server http(s)://HOST:PORT --enroll CODE [--ca FILE] [--name N] [--data-dir D]`: a host
 * daemon on this machine that connects out to a server; the code is traded once for the host's own
 * credential, kept in the data dir, so later starts need only `--server` (`--token T` still works,
 * deprecated). A certificate no CA of `--ca` or the system vouches for is refused. Prints `daemon host_…
 * linking to ws://…` first; exits 2 when the server refuses it for good (credential refused, host removed,
 * other protocol version, untrusted certificate), with the reason, and never loops. When its host id is
 * online already (a copied data dir), it prints how to get a new identity and retries only at the longest
 * backoff (`--reconnect-max-ms`).
 */
async function main(): Promise<void> {
  const config = loadDaemonConfig(process.argv.slice(2), process.env);
  const log = (message: string) => console.error(message);
  const running = await startRemoteDaemon({ config, providers: createProviders(config.agentProviders, log, config.agentIsolation), log });
  console.log(`daemon ${running.hostId} (${config.name}) linking to ${linkUrls(config.server).join(', ')}; data in ${config.dataDir}`);

  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    running.close().then(
      () => process.exit(code),
      (error: unknown) => {
        console.error(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  running.refused.then((refusal) => {
    console.error(`daemon stopped: ${refusal.message}`);
    stop(2);
  });
  // `on`, not `once`: the pi SDK loads signal-exit, which re-raises a signal nobody else listens to, and a
  // handler removed after its first call would let it kill the process halfway through the shutdown.
  process.on('SIGINT', () => stop(0));
  process.on('SIGTERM', () => stop(0));
}

main().catch((error: unknown) => {
  console.error(
    error instanceof DaemonConfigError || error instanceof NoHostCredential || error instanceof EnrollmentRefused
      ? error.message
      : `daemon failed to start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
