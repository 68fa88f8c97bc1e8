import { firstLineOf } from '../protocol/errorMessages';
import type { ListModelsResult } from '../protocol/hostModelCommands';
import type { HostHandlers } from './hostDispatcher';
import type { ProviderRegistry } from './providerRegistry';

/**
 * `host.list_models`: every agent provider's catalog, one after another, the models this host can use first
 * (`available`: a key or a local server in `models.json`), each part in its catalog's order (issue 29: pi's
 * catalog has ~970 models, and a picker that opens on one without a key offers a thread that cannot run).
 * One provider whose catalog cannot be read fails alone (its reason in `errors`), so the picker still offers
 * the others' models.
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
      // Array.prototype.sort is stable: within usable and unusable, the catalogs' own order stays.
      result.models.sort((a, b) => Number(b.available) - Number(a.available));
      return result;
    },
  };
}
