import type { DiffFile, GitDiffResult } from '../../protocol/hostGitCommands';

export type DiffSide = 'new' | 'old';

/** The file of the diff a review comment's path names (on the old side, a renamed file by its old path too). */
export function fileOfDiff(diff: GitDiffResult, path: string, side: DiffSide): DiffFile | undefined {
  return diff.files.find((file) => file.path === path || (side === 'old' && file.oldPath === path));
}

/**
 * The text of line `line` on one side of a file's diff, if the diff shows it: `new` counts context and added
 * lines from each hunk's `newStart`, `old` counts context and deleted lines from `oldStart`.
 */
export function lineOfDiff(file: DiffFile, line: number, side: DiffSide): string | undefined {
  for (const hunk of file.hunks) {
    let number = side === 'new' ? hunk.newStart : hunk.oldStart;
    for (const diffLine of hunk.lines) {
      const onSide = diffLine.kind === 'context' || diffLine.kind === (side === 'new' ? 'add' : 'del');
      if (!onSide) continue;
      if (number === line) return diffLine.text;
      number += 1;
    }
  }
  return undefined;
}
