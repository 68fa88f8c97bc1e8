import { runGit } from './runGit';

/**
 * The service's refs in a repository: `refs/ats/snapshots/<threadId>` (an archived worktree's uncommitted
 * state) and `refs/ats/turns/<threadId>/<startedAt>-<turnId>/{start,end}` (the trees at a turn's edges).
 * Outside `refs/heads` and `refs/tags`, so no branch list, `git log` or push shows them, and git's gc keeps
 * what they name.
 */
export function snapshotRef(threadId: string): string {
  return `refs/ats/snapshots/${threadId}`;
}

export function turnsPrefix(threadId: string): string {
  return `refs/ats/turns/${threadId}/`;
}

/** `{ ref: objectId }` of every ref under `prefix`. */
export async function listRefs(cwd: string, prefix: string): Promise<Map<string, string>> {
  const { stdout } = await runGit(['for-each-ref', '--format=%(objectname) %(refname)', prefix], { cwd });
  const refs = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

export async function setRef(cwd: string, ref: string, objectId: string): Promise<void> {
  await runGit(['update-ref', ref, objectId], { cwd });
}

/** Deletes the refs (one transaction); absent ones are fine. */
export async function deleteRefs(cwd: string, refs: Iterable<string>): Promise<void> {
  const lines = [...refs].map((ref) => `delete ${ref}\n`).join('');
  if (lines) await runGit(['update-ref', '--stdin'], { cwd, input: lines });
}

/** `refs/ats/reverts/<threadId>/<at>-<turnId>/{before,after}`: a revert's stored state and what it left (issue 39). */
export function revertsPrefix(threadId: string): string {
  return `refs/ats/reverts/${threadId}/`;
}

/** Every ref the service keeps for a thread: its snapshot, its turn trees and its reverts. */
export async function deleteThreadRefs(cwd: string, threadId: string): Promise<void> {
  const [turns, reverts] = await Promise.all([listRefs(cwd, turnsPrefix(threadId)), listRefs(cwd, revertsPrefix(threadId))]);
  await deleteRefs(cwd, [...turns.keys(), ...reverts.keys(), snapshotRef(threadId)]);
}
