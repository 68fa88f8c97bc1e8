import type { GitDiffResult } from '../../../protocol/hostGitCommands';
import type { RawEntry } from './parseRawEntries';

type DiffAnswer = Pick<GitDiffResult, 'files' | 'truncated'>;

/**
 * The first `maxFiles` changed files in path order, with their patches: git lists what changed (no patch,
 * a fraction of a whole diff's time), then diffs those files only. This is a page's first screen of a big
 * change before the whole diff arrives. A rename whose other half is past the cut reads as an add or a delete.
 */
export async function firstFiles(
  listed: Promise<RawEntry[]>,
  maxFiles: number,
  diffOf: (paths: string[]) => Promise<DiffAnswer>,
): Promise<DiffAnswer> {
  const entries = await listed;
  const chosen = entries.slice(0, maxFiles);
  if (chosen.length === 0) return { files: [], truncated: false };
  const answer = await diffOf(chosen.flatMap((entry) => (entry.oldPath === undefined ? [entry.path] : [entry.oldPath, entry.path])));
  return { files: answer.files.slice(0, maxFiles), truncated: answer.truncated || entries.length > maxFiles };
}
