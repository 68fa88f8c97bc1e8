import path from 'node:path';
import type { AgentModel } from '../../../protocol/hostModelCommands';
import { loadPiSdk } from './loadPiSdk';
import { PI_PROVIDER_ID } from './piFrames';

/**
 * pi's model catalog as pi itself reads it from `agentDir`: the built-in models plus `models.json`, each
 * marked `available` when `auth.json`, the environment or `models.json` gives its provider a key. Read anew
 * on every call (a few ms): a model added to `models.json` shows up without restarting the daemon.
 */
export async function listPiModels(options: { agentDir?: string } = {}): Promise<AgentModel[]> {
  const sdk = await loadPiSdk();
  const agentDir = options.agentDir ?? sdk.getAgentDir();
  const registry = sdk.ModelRegistry.create(sdk.AuthStorage.create(path.join(agentDir, 'auth.json')), path.join(agentDir, 'models.json'));
  const catalogError = registry.getError();
  if (catalogError) throw new Error(`${path.join(agentDir, 'models.json')} could not be read: ${catalogError}`);
  return registry.getAll().map((model) => ({
    provider: PI_PROVIDER_ID,
    model: `${model.provider}/${model.id}`,
    name: model.name || model.id,
    contextWindow: model.contextWindow,
    maxTokens: model.maxTokens,
    reasoning: model.reasoning,
    available: registry.hasConfiguredAuth(model),
  }));
}
