import type { ChosenPaths, DiffAnswer, ListedEntry } from './diffWorktree';

/**
 * The first `maxFiles` changed files in path order, with their patches: git lists what changed (no patch,
 * a fraction of a whole diff's time), then diffs those files only. This is a page's first screen of a big
 * change before the whole diff arrives. A rename whose other half is past the cut reads as an add or a delete.
 */
export async function firstFiles(
  listed: Promise<ListedEntry[]>,
  maxFiles: number,
  diffOf: (chosen: ChosenPaths) => Promise<DiffAnswer>,
): Promise<DiffAnswer> {
  const entries = await listed;
  const chosen = entries.slice(0, maxFiles);
  if (chosen.length === 0) return { files: [], truncated: false };
  const answer = await diffOf({
    paths: chosen.flatMap((entry) => (entry.oldPath === undefined ? [entry.path] : [entry.oldPath, entry.path])),
    untracked: chosen.filter((entry) => entry.untracked).map((entry) => entry.path),
  });
  return { files: answer.files.slice(0, maxFiles), truncated: answer.truncated || entries.length > maxFiles };
}
