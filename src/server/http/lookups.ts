import type { Collection } from '../../registry/collection';
import { notFound } from './problem';

/** A registry record by id, or a 404 problem `<what>_not_found`. */
export async function mustGet<T extends { id: string }>(collection: Collection<T>, id: string, what: string): Promise<T> {
  const record = await collection.get(id);
  if (!record) throw notFound(what, id);
  return record;
}
