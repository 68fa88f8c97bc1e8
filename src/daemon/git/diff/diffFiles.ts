import type { DiffFile } from '../../../protocol/hostGitCommands';
import type { DiffLimits } from './diffLimits';
import type { PatchSection } from './parsePatch';
import type { RawEntry } from './parseRawEntries';

/** The section of an entry git wrote no patch for: nothing to show but its status. */
export const EMPTY_SECTION: PatchSection = { binary: false, additions: 0, deletions: 0, hunks: [] };

/**
 * The answer's files, one raw entry with its patch section at a time (git writes both in the same order),
 * within the caps: a file past a line cap keeps its status and counts and loses its hunks (`truncated`);
 * files past `maxFiles` are left out, and `truncated` says so. One file at a time, so an answer sent in
 * parts is cut exactly as a whole one.
 */
export class DiffFileCut {
  truncated = false;
  private files = 0;
  private linesLeft: number;

  constructor(private readonly limits: DiffLimits) {
    this.linesLeft = limits.maxLines;
  }

  /** The next file of the answer, or undefined when it is past `maxFiles`. */
  next(entry: RawEntry, section: PatchSection): DiffFile | undefined {
    if (this.files >= this.limits.maxFiles) {
      this.truncated = true;
      return undefined;
    }
    this.files += 1;
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
    if (lineCount > this.limits.maxLinesPerFile || lineCount > this.linesLeft) {
      file.hunks = [];
      file.truncated = true;
      this.truncated = true;
    } else {
      this.linesLeft -= lineCount;
    }
    return file;
  }
}

/** A whole answer's files: every entry with its section, through one cut. */
export function diffFiles(
  entries: readonly RawEntry[],
  sections: readonly PatchSection[],
  limits: DiffLimits,
): { files: DiffFile[]; truncated: boolean } {
  const cut = new DiffFileCut(limits);
  const files = entries.flatMap((entry, index) => cut.next(entry, sections[index] ?? EMPTY_SECTION) ?? []);
  return { files, truncated: cut.truncated };
}
