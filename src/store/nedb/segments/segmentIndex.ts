import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { INDEX_FILE_NAME } from './segmentLayout';

/** What the index knows of a thread's file: its last seq (= its row count, seqs have no gaps) at a size. */
export interface SegmentHead {
  lastSeq: number;
  bytes: number;
}

const IndexFileSchema = z.object({
  version: z.literal(1),
  /** threadId → [lastSeq, bytes]. */
  threads: z.record(z.string(), z.tuple([z.number().int().min(0), z.number().int().min(0)])),
});

/**
 * The persisted index is a hint, never the truth: a head is used only while its file still has exactly the
 * recorded size (the file was not appended to, cut or rewritten since), else the file's last line decides.
 * So a stale, lost or damaged index costs a tail read, never a wrong seq.
 */
export async function readSegmentIndex(eventsDir: string): Promise<Map<string, SegmentHead>> {
  let text: string;
  try {
    text = await fs.readFile(path.join(eventsDir, INDEX_FILE_NAME), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  let parsed: z.infer<typeof IndexFileSchema>;
  try {
    parsed = IndexFileSchema.parse(JSON.parse(text));
  } catch {
    return new Map();
  }
  return new Map(Object.entries(parsed.threads).map(([threadId, [lastSeq, bytes]]) => [threadId, { lastSeq, bytes }]));
}

/** Written beside and renamed over the old one, so a reader finds the old index or the new, never half of one. */
export async function writeSegmentIndex(eventsDir: string, heads: ReadonlyMap<string, SegmentHead>): Promise<void> {
  const threads: Record<string, [number, number]> = {};
  for (const [threadId, head] of heads) threads[threadId] = [head.lastSeq, head.bytes];
  const target = path.join(eventsDir, INDEX_FILE_NAME);
  const temp = `${target}.${process.pid}.tmp`;
  await fs.writeFile(temp, JSON.stringify({ version: 1, threads }));
  await fs.rename(temp, target);
}
