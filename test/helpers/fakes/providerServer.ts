import { loadConfig } from '../../../src/config/serverConfig';
import { startServer } from '../../../src/server/startServer';
import { fakeProvider } from './provider';

/**
 * A real server process whose embedded daemon runs the fake `pi` provider (provider.ts: a prompt
 * `hang` streams and never ends), for tests that kill the process mid-run. Same flags and env as `npm start`;
 * prints `listening on URL` first. Run: `node -r ts-node/register/transpile-only test/helpers/fakes/providerServer.ts …`.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  const server = await startServer({ config, providers: [fakeProvider('pi')], log: (message) => console.error(message) });
  console.log(`listening on ${server.url}`);
}

main().catch((error: unknown) => {
  console.error(`failed to start: ${String(error)}`);
  process.exit(1);
});
