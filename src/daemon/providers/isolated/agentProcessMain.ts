import { ProviderFactoryRefSchema } from './providerFactoryRef';
import type { AgentProvider } from '../agentProvider';
import { serveAgentProcess } from './serveAgentProcess';

/**
 * The entry of one thread's agent process (forked by `agentProcess.ts`) for any provider: the provider's
 * factory is named on the command line (a module, its export and JSON options) and loaded here.
 */
const factory = ProviderFactoryRefSchema.parse(JSON.parse(process.argv[2] ?? '{}'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const create = (require(factory.module) as Record<string, unknown>)[factory.exportName] as (options: unknown) => AgentProvider;
serveAgentProcess((log) => create({ ...factory.options, log }));
