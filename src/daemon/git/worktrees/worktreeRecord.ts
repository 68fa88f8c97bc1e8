import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { SetupRunSchema } from '../../../protocol/hostGitCommands';
import { replaceFile } from '../../../store/replaceFile';

/**
 * What the daemon knows of one thread's worktree, kept beside it as `<threadId>.json`. Written before every
 * git step and replaced whole (a kill leaves the old record or the new one), it is both the completion marker
 * (`ready` is written last) and the proof of ownership: only a worktree with a record is ours, and only a
 * branch the record says we made (`createdBranch`) is ever deleted.
 *
 *   creating → ready → removing → removed → restoring → ready …      deleting → (record gone)
 */
export const WorktreeStateSchema = z.enum(['creating', 'ready', 'removing', 'removed', 'restoring', 'deleting']);
export type WorktreeState = z.infer<typeof WorktreeStateSchema>;

export const WorktreeRecordSchema = z.object({
  threadId: z.string(),
  projectId: z.string(),
  /** The project's checkout (its top folder) and the repository's common git dir. */
  checkout: z.string(),
  commonDir: z.string(),
  path: z.string(),
  state: WorktreeStateSchema,
  branch: z.string().nullable(),
  createdBranch: z.boolean(),
  baseRef: z.string(),
  baseCommit: z.string(),
  setup: SetupRunSchema.nullable(),
  /** At archive: the commit the worktree stood on, and the snapshot commit of its uncommitted state (if dirty). */
  head: z.string().nullable(),
  snapshot: z.string().nullable(),
  /** `deleting`: the branch goes too (if we made it). */
  deleteBranch: z.boolean().optional(),
});
export type WorktreeRecord = z.infer<typeof WorktreeRecordSchema>;

export function worktreesRoot(dataDir: string): string {
  return path.join(dataDir, 'worktrees');
}

export function worktreePath(dataDir: string, projectId: string, threadId: string): string {
  return path.join(worktreesRoot(dataDir), projectId, threadId);
}

function recordFile(worktree: string): string {
  return `${worktree}.json`;
}

export async function readRecord(worktree: string): Promise<WorktreeRecord | null> {
  let text: string;
  try {
    text = await fs.readFile(recordFile(worktree), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = WorktreeRecordSchema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : null;
}

export async function writeRecord(record: WorktreeRecord): Promise<void> {
  await fs.mkdir(path.dirname(record.path), { recursive: true });
  await replaceFile(recordFile(record.path), `${JSON.stringify(record, null, 2)}\n`);
}

export async function dropRecord(worktree: string): Promise<void> {
  await fs.rm(recordFile(worktree), { force: true });
}

/** Every worktree folder or record under the data dir: `{ projectId, threadId, path }`, temp files skipped. */
export async function listOwnWorktrees(dataDir: string): Promise<Array<{ projectId: string; threadId: string; path: string }>> {
  const root = worktreesRoot(dataDir);
  const found = new Map<string, { projectId: string; threadId: string; path: string }>();
  for (const projectId of await namesIn(root)) {
    if (!projectId.startsWith('proj_')) continue;
    for (const name of await namesIn(path.join(root, projectId))) {
      const threadId = name.endsWith('.json') ? name.slice(0, -'.json'.length) : name;
      if (!/^thr_[A-Za-z0-9_-]+$/.test(threadId)) continue;
      found.set(threadId, { projectId, threadId, path: worktreePath(dataDir, projectId, threadId) });
    }
  }
  return [...found.values()];
}

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await fs.readdir(folder);
  } catch {
    return [];
  }
}

/** Temp files a kill left beside the records (replaceFile's `.tmp`). */
export async function removeTempLeftovers(dataDir: string): Promise<void> {
  const root = worktreesRoot(dataDir);
  for (const projectId of await namesIn(root)) {
    for (const name of await namesIn(path.join(root, projectId))) {
      if (name.endsWith('.tmp')) await fs.rm(path.join(root, projectId, name), { force: true });
    }
  }
}
