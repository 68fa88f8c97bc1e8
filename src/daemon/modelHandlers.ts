import { firstLineOf } from '../protocol/errorMessages';
import type { ListModelsResult } from '../protocol/hostModelCommands';
import type { HostHandlers } from './hostDispatcher';
import type { ProviderRegistry } from './providerRegistry';

/**
 * `host.list_models`: every agent provider's catalog, one after another. One provider whose catalog cannot be
 * read fails alone (its reason in `errors`), so the picker still offers the others' models.
 */
export function createModelHandlers(providers: ProviderRegistry): Pick<HostHandlers, 'host.list_models'> {
  return {
    'host.list_models': async (params) => {
      const result: ListModelsResult = { models: [], errors: [] };
      const ids = params.provider === undefined ? providers.ids() : providers.ids().filter((id) => id === params.provider);
      for (const id of ids) {
        const provider = providers.get(id)!;
        if (!provider.listModels) continue;
        try {
          result.models.push(...(await provider.listModels()));
        } catch (error) {
          result.errors.push({ provider: id, message: firstLineOf(error) });
        }
      }
      return result;
    },
  };
}
