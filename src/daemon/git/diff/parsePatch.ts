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
 * Reads the sections of `git diff -p` in git's order, one per `diff --git` header, a line at a time as git
 * writes them (so a big patch is read while git still works on it). A hunk is read by its header's counts, so
 * a content line that happens to read `diff --git …` stays content.
 *
 *   diff --git a/f b/f ⏎ --- a/f ⏎ +++ b/f ⏎ @@ -1,2 +1,2 @@ ⏎  a ⏎ -b ⏎ +c   →   [{ hunks: [{ 1,2,1,2, lines }] }]
 */
export class PatchParser {
  readonly sections: PatchSection[] = [];
  private section: PatchSection | undefined;
  private hunk: DiffHunk | undefined;
  private oldLeft = 0;
  private newLeft = 0;

  /** The line `text[start, end)`, its newline left out; taken by offsets so no line is copied twice. */
  line(text: string, start: number, end: number): void {
    const { hunk, section } = this;
    if (!hunk || !section || (this.oldLeft <= 0 && this.newLeft <= 0)) return this.headerLine(text.slice(start, end));
    const mark = text.charCodeAt(start);
    if (mark === PLUS) {
      hunk.lines.push({ kind: 'add', text: text.slice(start + 1, end) });
      section.additions += 1;
      this.newLeft -= 1;
    } else if (mark === MINUS) {
      hunk.lines.push({ kind: 'del', text: text.slice(start + 1, end) });
      section.deletions += 1;
      this.oldLeft -= 1;
    } else if (mark === SPACE || end === start) {
      hunk.lines.push({ kind: 'context', text: text.slice(start + 1, end) });
      this.oldLeft -= 1;
      this.newLeft -= 1;
    }
    // `\ No newline at end of file` belongs to the line before it: nothing to count.
  }

  private headerLine(line: string): void {
    if (line.startsWith('diff --git ')) {
      this.section = { binary: false, additions: 0, deletions: 0, hunks: [] };
      this.sections.push(this.section);
      this.hunk = undefined;
      return;
    }
    if (!this.section) return;
    const header = HUNK_HEADER.exec(line);
    if (header) {
      this.hunk = {
        oldStart: Number(header[1]),
        oldLines: header[2] === undefined ? 1 : Number(header[2]),
        newStart: Number(header[3]),
        newLines: header[4] === undefined ? 1 : Number(header[4]),
        lines: [],
      };
      this.oldLeft = this.hunk.oldLines;
      this.newLeft = this.hunk.newLines;
      this.section.hunks.push(this.hunk);
    } else if (!this.hunk && (line.startsWith('Binary files ') || line === 'GIT binary patch')) {
      this.section.binary = true;
    }
  }
}

const PLUS = 43;
const MINUS = 45;
const SPACE = 32;
