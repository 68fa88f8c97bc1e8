import { api } from './http';
import type { ModelChoice } from './types';

type CatalogEntry = string | { id?: string; provider?: string; name?: string; model?: string; value?: string; contextWindow?: number };

/**
 * The host's model catalog (`GET /hosts/:id/models`, the pi agent dir's models) as choices for a new thread.
 * Read leniently: a bare list or `{models: [...]}`, entries named `provider/id` or split in two fields.
 */
export async function modelsOf(hostId: string): Promise<ModelChoice[]> {
  const answer = await api<CatalogEntry[] | { models?: CatalogEntry[] }>(`/hosts/${encodeURIComponent(hostId)}/models`);
  const entries = Array.isArray(answer) ? answer : (answer.models ?? []);
  return entries.flatMap((entry): ModelChoice[] => {
    if (typeof entry === 'string') return [{ value: entry, label: entry }];
    const id = entry.value ?? entry.id ?? entry.model;
    if (!id) return [];
    const value = id.includes('/') || !entry.provider ? id : `${entry.provider}/${id}`;
    const label = entry.name && entry.name !== id ? `${entry.name} (${value})` : value;
    return [{ value, label }];
  });
}
