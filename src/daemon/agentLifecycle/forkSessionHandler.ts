import path from 'node:path';
import type { HostHandlers } from '../hostDispatcher';
import type { ProviderRegistry } from '../providerRegistry';
import { HostCommandError } from '../../protocol/hostErrors';

/**
 * `thread.fork_session` (issue 39, docs/fork.md): the provider's own fork of a session, in the folder where
 * that provider keeps its sessions (`<dataDir>/providers/<id>`); null for a provider without one, or one that
 * cannot fork at that point.
 */
export function createForkSessionHandler(deps: {
  providers: ProviderRegistry;
  dataDir: string;
}): Pick<HostHandlers, 'thread.fork_session'> {
  return {
    async 'thread.fork_session'(params) {
      const provider = deps.providers.get(params.provider);
      if (!provider) throw new HostCommandError('no_agent_provider', `this host has no agent provider "${params.provider}"`);
      if (!provider.forkSession) return { providerThreadId: null };
      const sessions = path.join(deps.dataDir, 'providers', provider.id);
      try {
        const providerThreadId = await provider.forkSession({
          providerThreadId: params.providerThreadId,
          checkpointId: params.checkpointId,
          atSessionEnd: params.atSessionEnd,
          dataDir: sessions,
          cwd: params.cwd,
        });
        return { providerThreadId };
      } catch (error) {
        throw new HostCommandError(
          'agent_failed',
          `the ${provider.id} session was not forked: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  };
}
