import { deleteRefs, listRefs, revertsPrefix } from '../ownRefs';
import { runGit } from '../runGit';
import { refPart, turnIdOf } from '../turns/turnRefs';

/**
 * One revert as refs: `<base>/before` is a stash-shaped commit of the state the revert replaced (files tree,
 * parents HEAD and a commit of the index), `<base>/after` the tree it left (the turn's start tree). The base is
 * `refs/ats/reverts/<threadId>/<at ms, 15 digits>-<turnId>`, so the newest revert sorts last: unrevert pops it.
 */
export interface RevertRefs {
  base: string;
  turnId: string;
  before: string;
  after: string;
}

export function revertRefBase(threadId: string, turnId: string, at: number): string {
  return `${revertsPrefix(threadId)}${String(at).padStart(15, '0')}-${refPart(turnId)}`;
}

/** Both refs in one transaction: a revert's refs are there together or not at all. */
export async function setRevertRefs(cwd: string, base: string, before: string, after: string): Promise<void> {
  await runGit(['update-ref', '--stdin'], { cwd, input: `update ${base}/before ${before}\nupdate ${base}/after ${after}\n` });
}

export async function dropRevertRefs(cwd: string, base: string): Promise<void> {
  await deleteRefs(cwd, [`${base}/before`, `${base}/after`]);
}

/** The thread's newest revert that both refs record, or null. */
export async function latestRevert(cwd: string, threadId: string): Promise<RevertRefs | null> {
  const refs = await listRefs(cwd, revertsPrefix(threadId));
  const bases = [...new Set([...refs.keys()].map((ref) => ref.slice(0, ref.lastIndexOf('/'))))].sort();
  for (const base of bases.reverse()) {
    const before = refs.get(`${base}/before`);
    const after = refs.get(`${base}/after`);
    const match = /\/\d{15}-([^/]+)$/.exec(base);
    if (before && after && match) return { base, turnId: turnIdOf(match[1]!), before, after };
  }
  return null;
}
