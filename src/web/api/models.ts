import { answerOf, client } from './http';
import type { ModelChoice } from './types';

/**
 * The host's model catalog (`GET /hosts/:id/models`, the pi agent dir's models) as choices for a new
 * thread: models this host can run first (`available`: a key, or a local model), each named with its agent; a
 * catalog that could not be read is reported.
 */
export async function modelsOf(hostId: string): Promise<{ choices: ModelChoice[]; problems: string[] }> {
  const answer = await answerOf(client.GET('/api/v1/hosts/{id}/models', { params: { path: { id: hostId } } }));
  const choices = answer.models
    .map((entry) => ({
      value: `${entry.provider}|${entry.model}`,
      provider: entry.provider,
      model: entry.model,
      label: `${entry.name && entry.name !== entry.model ? `${entry.name} — ` : ''}${entry.model}`,
      available: entry.available,
    }))
    .sort((a, b) => Number(b.available) - Number(a.available));
  return { choices, problems: answer.errors.map((error) => `${error.provider}: ${error.message}`) };
}
