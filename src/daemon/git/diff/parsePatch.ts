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
  const lines = patch.split('\n');
  let section: PatchSection | undefined;
  let hunk: DiffHunk | undefined;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of lines) {
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === '+') {
        hunk.lines.push({ kind: 'add', text });
        section!.additions += 1;
        newLeft -= 1;
      } else if (mark === '-') {
        hunk.lines.push({ kind: 'del', text });
        section!.deletions += 1;
        oldLeft -= 1;
      } else if (mark === ' ' || line === '') {
        hunk.lines.push({ kind: 'context', text });
        oldLeft -= 1;
        newLeft -= 1;
      }
      // `\ No newline at end of file` belongs to the line before it: nothing to count.
      continue;
    }
    if (line.startsWith('diff --git ')) {
      section = { binary: false, additions: 0, deletions: 0, hunks: [] };
      sections.push(section);
      hunk = undefined;
      continue;
    }
    if (!section) continue;
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
  return sections;
}
