import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * What a commit or push in progress is about to do, kept as `<data dir>/ship/<threadId>.json` from before its
 * first git step until its row is written. Replaced whole (a kill leaves the old one or the new one), it is how
 * the next start tells "happened" from "not at all" and writes the thread's row that says which.
 *
 *   commit: committing {ref, old, message} → (row written) → gone
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
    message: z.string(),
    paths: z.array(z.string()).nullable(),
    /**
     * The copy of the index the commit is staged in (beside the journal). Git holds `<it>.lock` while it works
     * on it, `git commit` until after the branch moved: the recovery waits for that lock to go, so a git child
     * that outlived the killed daemon is never judged half-way.
     */
    tempIndex: z.string(),
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
    /** The `git push` process, once spawned: the recovery waits for it to end before asking the remote. */
    pid: z.number().int().optional(),
  }),
]);
export type ShipJournal = z.infer<typeof ShipJournalSchema>;

export const shipJournalDir = (dataDir: string) => path.join(dataDir, 'ship');
const journalFile = (dataDir: string, threadId: string) => path.join(shipJournalDir(dataDir), `${threadId}.json`);

/**
 * Written beside and renamed over (a kill leaves the old journal or the new one), but not fsynced, unlike the
 * worktree records: what it guards against is a kill of the daemon, which the page cache survives, and two
 * fsyncs per commit cost a measurable share of it (bench:ship). After a power cut it may be missing: the
 * thread then says nothing of a commit cut short, and git's own state is whole either way.
 */
export async function writeShipJournal(dataDir: string, journal: ShipJournal): Promise<void> {
  await fs.mkdir(shipJournalDir(dataDir), { recursive: true });
  const file = journalFile(dataDir, journal.threadId);
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, JSON.stringify(journal));
  await fs.rename(temp, file);
}

/** The folder of the journals, where a commit's copy of the index lives too (not `git-tmp`, emptied at start). */
export function shipTempFile(dataDir: string, name: string): string {
  return path.join(shipJournalDir(dataDir), name);
}

export async function dropShipJournal(dataDir: string, threadId: string): Promise<void> {
  await removeFile(journalFile(dataDir, threadId));
}

/** `rm -f` of one file in one system call (`fs.rm` stats it first: a second wait on the thread pool). */
export async function removeFile(file: string): Promise<void> {
  await fs.unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}

/** Every journal a kill left (one unreadable is logged and dropped: it was cut before its first step). */
export async function readShipJournals(dataDir: string, log: (message: string) => void): Promise<ShipJournal[]> {
  const names = await fs.readdir(shipJournalDir(dataDir)).catch(() => [] as string[]);
  const journals: ShipJournal[] = [];
  for (const name of names) {
    const file = path.join(shipJournalDir(dataDir), name);
    if (!name.endsWith('.json')) continue; // a commit's index copy: its journal's recovery removes it
    try {
      journals.push(ShipJournalSchema.parse(JSON.parse(await fs.readFile(file, 'utf8'))));
    } catch (error) {
      log(`ship journal ${name} unreadable, dropped: ${(error as Error).message}`);
      await fs.rm(file, { force: true });
    }
  }
  return journals;
}

/** What a recovery leaves once every journal is settled: no index copy or half-written journal of ours. */
export async function dropShipLeftovers(dataDir: string): Promise<void> {
  const names = await fs.readdir(shipJournalDir(dataDir)).catch(() => [] as string[]);
  await Promise.all(
    names.filter((name) => !name.endsWith('.json')).map((name) => fs.rm(path.join(shipJournalDir(dataDir), name), { force: true })),
  );
}
