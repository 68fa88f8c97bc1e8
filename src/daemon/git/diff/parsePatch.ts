import type { DiffHunk } from '../../../protocol/hostGitCommands';

/** What one file's section of a unified patch says: its hunks (or that it is binary) and its line counts. */
export interface PatchSection {
  binary: boolean;
  additions: number;
  deletions: number;
  hunks: DiffHunk[];
}

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The sections of `git diff -p` in git's order, one per `diff --git` header. A hunk is read by its header's
 * counts, so a content line that happens to read `diff --git …` stays content.
 *
 *   diff --git a/f b/f ⏎ --- a/f ⏎ +++ b/f ⏎ @@ -1,2 +1,2 @@ ⏎  a ⏎ -b ⏎ +c   →   [{ hunks: [{ 1,2,1,2, lines }] }]
 */
export function parsePatch(patch: string): PatchSection[] {
  const sections: PatchSection[] = [];
  let section: PatchSection | undefined;
  let hunk: DiffHunk | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  // One pass with indexOf and charCodeAt, no array of lines: a 50k-line patch is read in one sweep (bench:git).
  for (let at = 0; at < patch.length;) {
    const newline = patch.indexOf('\n', at);
    const end = newline < 0 ? patch.length : newline;
    const mark = patch.charCodeAt(at);
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      if (mark === PLUS) {
        hunk.lines.push({ kind: 'add', text: patch.slice(at + 1, end) });
        section!.additions += 1;
        newLeft -= 1;
      } else if (mark === MINUS) {
        hunk.lines.push({ kind: 'del', text: patch.slice(at + 1, end) });
        section!.deletions += 1;
        oldLeft -= 1;
      } else if (mark === SPACE || end === at) {
        hunk.lines.push({ kind: 'context', text: patch.slice(at + 1, end) });
        oldLeft -= 1;
        newLeft -= 1;
      }
      // `\ No newline at end of file` belongs to the line before it: nothing to count.
    } else {
      headerLine(patch.slice(at, end));
    }
    at = end + 1;
  }
  return sections;

  function headerLine(line: string): void {
    if (line.startsWith('diff --git ')) {
      section = { binary: false, additions: 0, deletions: 0, hunks: [] };
      sections.push(section);
      hunk = undefined;
      return;
    }
    if (!section) return;
    const header = HUNK_HEADER.exec(line);
    if (header) {
      hunk = {
        oldStart: Number(header[1]),
        oldLines: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newLines: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      };
      oldLeft = hunk.oldLines;
      newLeft = hunk.newLines;
      section.hunks.push(hunk);
    } else if (!hunk && (line.startsWith('Binary files ') || line === 'GIT binary patch')) {
      section.binary = true;
    }
  }
}

const PLUS = 43;
const MINUS = 45;
const SPACE = 32;
