import { toDocument, type EventDocument } from '../eventDocument';
import type { StoredThreadEvent } from '../../eventStore';
import { segmentId } from './segmentLayout';

/** A row as its thread's file holds it: the store's document, with the seq alone as `_id` (the file is the thread). */
export function toSegmentDocument(row: StoredThreadEvent): EventDocument {
  return { ...toDocument(row), _id: segmentId(row.seq) };
}
