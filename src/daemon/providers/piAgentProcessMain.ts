import { ProviderFactoryRefSchema } from './isolated/providerFactoryRef';
import { serveAgentProcess } from './isolated/serveAgentProcess';
import { createPiProvider, type PiProviderOptions } from './pi/createPiProvider';
import { loadPiSdk } from './pi/loadPiSdk';

/**
 * The pi agent process as the build bundles it (`dist/node/agents/pi-agent.mjs`, src/build/bundlePiAgent.mjs):
 * the same process as `agentProcessMain` with the pi provider, its SDK and their packages in a few files, so a
 * first prompt does not wait for Node to resolve and compile ~1,000 modules one by one (docs/speed.md).
 * The command line carries the same factory ref; only its options are read.
 */
const { options } = ProviderFactoryRefSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
serveAgentProcess((log) => createPiProvider({ ...(options as Omit<PiProviderOptions, 'log'>), log }));
// Loading starts now (after the provider set the process up, e.g. PI_OFFLINE), while the daemon's `open`
// command is still on its way: opening the thread needs it. A failed load is retried, and reported, by that open.
loadPiSdk().catch(() => undefined);
