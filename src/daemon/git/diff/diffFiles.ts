import type { DiffFile } from '../../../protocol/hostGitCommands';
import type { DiffLimits } from './diffLimits';
import type { PatchSection } from './parsePatch';
import type { RawEntry } from './parseRawEntries';

/**
 * The answer's files: each raw entry with its patch section (git writes both in the same order), within the
 * caps. A file past a cap keeps its status and counts and loses its hunks (`truncated`); files past
 * `maxFiles` are left out, and the answer says so.
 */
export function diffFiles(
  entries: readonly RawEntry[],
  sections: readonly PatchSection[],
  limits: DiffLimits,
): { files: DiffFile[]; truncated: boolean } {
  const files: DiffFile[] = [];
  let truncated = entries.length > limits.maxFiles;
  let linesLeft = limits.maxLines;
  entries.slice(0, limits.maxFiles).forEach((entry, index) => {
    const section = sections[index] ?? { binary: false, additions: 0, deletions: 0, hunks: [] };
    const lineCount = section.hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);
    const file: DiffFile = {
      path: entry.path,
      ...(entry.oldPath === undefined ? {} : { oldPath: entry.oldPath }),
      status: entry.status,
      binary: section.binary,
      additions: section.additions,
      deletions: section.deletions,
      hunks: section.hunks,
    };
    if (lineCount > limits.maxLinesPerFile || lineCount > linesLeft) {
      file.hunks = [];
      file.truncated = true;
      truncated = true;
    } else {
      linesLeft -= lineCount;
    }
    files.push(file);
  });
  return { files, truncated };
}
