import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { replaceFile } from '../../../store/replaceFile';

/**
 * What a commit or push in progress is about to do, kept as `<data dir>/ship/<threadId>.json` from before its
 * first git step until its row is written. Replaced whole (a kill leaves the old one or the new one), it is how
 * the next start tells "happened" from "not at all" and writes the thread's row that says which.
 *
 *   commit: preparing → committing {old, sha} → (row written) → gone
 *   push:   pushing {remote, branch, sha}      → (row written) → gone
 */
export const ShipJournalSchema = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('commit'),
    threadId: z.string(),
    path: z.string(),
    /** The ref the commit moves (`refs/heads/<branch>`, or `HEAD` when detached) and its commit before. */
    ref: z.string(),
    old: z.string(),
    /** Set once the commit object exists, just before the ref moves to it. */
    sha: z.string().nullable(),
    message: z.string(),
    files: z.array(z.string()),
    paths: z.array(z.string()).nullable(),
  }),
  z.object({
    action: z.literal('push'),
    threadId: z.string(),
    path: z.string(),
    remote: z.string(),
    branch: z.string(),
    /** The remote branch it goes to (the upstream's name, else the same name). */
    remoteBranch: z.string(),
    sha: z.string(),
  }),
]);
export type ShipJournal = z.infer<typeof ShipJournalSchema>;

export const shipJournalDir = (dataDir: string) => path.join(dataDir, 'ship');
const journalFile = (dataDir: string, threadId: string) => path.join(shipJournalDir(dataDir), `${threadId}.json`);

export async function writeShipJournal(dataDir: string, journal: ShipJournal): Promise<void> {
  await fs.mkdir(shipJournalDir(dataDir), { recursive: true });
  await replaceFile(journalFile(dataDir, journal.threadId), JSON.stringify(journal));
}

export async function dropShipJournal(dataDir: string, threadId: string): Promise<void> {
  await fs.rm(journalFile(dataDir, threadId), { force: true });
}

/** Every journal a kill left (one unreadable is logged and dropped: it was cut before its first step). */
export async function readShipJournals(dataDir: string, log: (message: string) => void): Promise<ShipJournal[]> {
  const names = await fs.readdir(shipJournalDir(dataDir)).catch(() => [] as string[]);
  const journals: ShipJournal[] = [];
  for (const name of names) {
    const file = path.join(shipJournalDir(dataDir), name);
    if (!name.endsWith('.json')) {
      await fs.rm(file, { force: true }); // a replaceFile temp a kill left
      continue;
    }
    try {
      journals.push(ShipJournalSchema.parse(JSON.parse(await fs.readFile(file, 'utf8'))));
    } catch (error) {
      log(`ship journal ${name} unreadable, dropped: ${(error as Error).message}`);
      await fs.rm(file, { force: true });
    }
  }
  return journals;
}
