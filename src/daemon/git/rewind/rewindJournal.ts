import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { replaceFile } from '../../../store/replaceFile';

/**
 * A revert or unrevert under way, kept as `<data dir>/rewind/<threadId>.json` from before its first visible
 * step until its row is written. Replaced whole (a kill leaves it or not): with it, the daemon's next start
 * finishes the step (refs, files, row), so a kill makes it happen once; without it, nothing visible happened.
 */
export const RewindStepSchema = z.object({
  action: z.enum(['revert', 'unrevert']),
  threadId: z.string(),
  workTree: z.string(),
  commonDir: z.string(),
  turnId: z.string(),
  /** The revert's refs (`refs/ats/reverts/…`), named in the row as `snapshotRef` (its `/before`). */
  base: z.string(),
  /** The stored state before the revert (a commit) and the tree the files are being put to. */
  before: z.string(),
  target: z.string(),
  undoneTurnIds: z.array(z.string()),
  /** A revert: the agent's checkpoint its conversation goes back to (null: its start); absent when unknown. */
  agentCheckpoint: z.string().nullable().optional(),
});
export type RewindStep = z.infer<typeof RewindStepSchema>;

export function rewindDir(dataDir: string): string {
  return path.join(dataDir, 'rewind');
}

const journalFile = (dataDir: string, threadId: string) => path.join(rewindDir(dataDir), `${threadId}.json`);

export async function writeStep(dataDir: string, step: RewindStep): Promise<void> {
  await fs.mkdir(rewindDir(dataDir), { recursive: true });
  await replaceFile(journalFile(dataDir, step.threadId), `${JSON.stringify(step, null, 2)}\n`);
}

export async function dropStep(dataDir: string, threadId: string): Promise<void> {
  await fs.rm(journalFile(dataDir, threadId), { force: true });
}

/** Every step a kill left; temporary files of `replaceFile` are removed. */
export async function leftSteps(dataDir: string): Promise<RewindStep[]> {
  const names = await fs.readdir(rewindDir(dataDir)).catch(() => [] as string[]);
  const steps: RewindStep[] = [];
  for (const name of names) {
    const file = path.join(rewindDir(dataDir), name);
    if (name.endsWith('.tmp')) await fs.rm(file, { force: true });
    else if (/^thr_[A-Za-z0-9_-]+\.json$/.test(name)) {
      const parsed = RewindStepSchema.safeParse(JSON.parse(await fs.readFile(file, 'utf8')));
      if (parsed.success) steps.push(parsed.data);
    }
  }
  return steps;
}
