import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { readHeadFiles } from './headFiles';

/**
 * The work tree holding `folder` (it may be a folder deep in it, as a checkout thread's is) and its `HEAD`
 * commit, from git's own files (headFiles.ts) instead of a `git rev-parse`: the nearest folder with a `.git`
 * is the top, as git finds it. Null where git would look further or elsewhere (a ceiling in the environment,
 * `core.worktree` in the config) or wherever readHeadFiles answers null: the caller then asks git, which also
 * says precisely what is wrong.
 */
export function readWorkTreeHead(folder: string): { topLevel: string; head: string } | null {
  if (process.env.GIT_CEILING_DIRECTORIES !== undefined) return null;
  try {
    const topLevel = nearestWithDotGit(realpathSync(folder));
    const head = topLevel === null ? null : readHeadFiles(topLevel);
    if (topLevel === null || head === null) return null;
    if (/^\s*worktree\s*=/im.test(readFileSync(path.join(head.commonDir, 'config'), 'utf8'))) return null;
    return { topLevel, head: head.commit };
  } catch {
    return null;
  }
}

function nearestWithDotGit(start: string): string | null {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (statSync(path.join(dir, '.git'), { throwIfNoEntry: false })) return dir;
    if (path.dirname(dir) === dir) return null;
  }
}
