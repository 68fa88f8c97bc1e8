import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The bundled pi agent entry the build writes beside the compiled daemon (`dist/node/agents/pi-agent.mjs`),
 * when the daemon runs compiled and the bundle exists; otherwise undefined and each agent process loads the
 * pi SDK from node_modules (under ts-node, or a build without the bundler).
 */
export function bundledPiAgentEntry(): string | undefined {
  if (path.extname(__filename) !== '.js') return undefined;
  // dist/node/src/daemon/providers → dist/node/agents
  const entry = path.resolve(__dirname, '..', '..', '..', 'agents', 'pi-agent.mjs');
  return existsSync(entry) ? entry : undefined;
}
