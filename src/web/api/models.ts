import { api } from './http';
import type { ModelChoice } from './types';

/** `GET /hosts/:id/models` (src/protocol/hostModelCommands.ts). */
interface ModelsAnswer {
  models: Array<{ provider: string; model: string; name: string; contextWindow?: number; available: boolean }>;
  errors: Array<{ provider: string; message: string }>;
}

/**
 * The host's model catalog (the pi agent dir's models) as choices for a new thread: models with a key
 * first, each named with its agent; a catalog that could not be read is reported, not hidden.
 */
export async function modelsOf(hostId: string): Promise<{ choices: ModelChoice[]; problems: string[] }> {
  const answer = await api<ModelsAnswer>(`/hosts/${encodeURIComponent(hostId)}/models`);
  const choices = answer.models
    .map((entry) => ({
      value: `${entry.provider}|${entry.model}`,
      provider: entry.provider,
      model: entry.model,
      label: `${entry.name && entry.name !== entry.model ? `${entry.name} — ` : ''}${entry.model}${entry.available ? '' : ' (no key)'}`,
      available: entry.available,
    }))
    .sort((a, b) => Number(b.available) - Number(a.available));
  return { choices, problems: answer.errors.map((error) => `${error.provider}: ${error.message}`) };
}
