import type { ModelChoice } from '../api/types';

/** More rows than this are not drawn (a catalog can list ~1,000 models): typing narrows them. */
export const SHOWN_LIMIT = 100;

/**
 * The models the picker lists: those this host can run (`available`: a key in its environment, or a local
 * model in models.json) unless `all` is asked for, matching every word of `query` in the name or the id.
 */
export function matchingModels(choices: ModelChoice[], query: string, all: boolean): ModelChoice[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return choices.filter(
    (choice) => (all || choice.available) && words.every((word) => `${choice.label} ${choice.model}`.toLowerCase().includes(word)),
  );
}

/** The model a new thread starts with: the first the host can run; none (so none that cannot run) otherwise. */
export function defaultModel(choices: ModelChoice[]): ModelChoice | undefined {
  return choices.find((choice) => choice.available);
}
