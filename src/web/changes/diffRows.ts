import type { CommentSide, DiffFile, DiffLineKind } from './types';

/** One side of a diff line: its number on that side and its text. */
export interface DiffCell {
  kind: DiffLineKind;
  line: number;
  text: string;
}

/**
 * One screen row of the diff. The whole change is flattened into rows of one fixed height, so the view can
 * render only the rows on screen (a 50,000-line change stays under 2,000 elements, issue 38).
 */
export type DiffRow =
  | { kind: 'file'; file: number }
  | { kind: 'hunk'; file: number; text: string }
  | { kind: 'note'; file: number; text: string }
  /** Unified: one line, with its old and new numbers (a deleted line has no new one, an added line no old one). */
  | { kind: 'line'; file: number; line: DiffLineKind; oldLine?: number; newLine?: number; text: string }
  /** Split: the old side and the new side of one row; a deletion beside the addition that replaced it. */
  | { kind: 'pair'; file: number; old?: DiffCell; new?: DiffCell };

export type DiffLayout = 'unified' | 'split';

export interface DiffRows {
  rows: DiffRow[];
  /** The index of each file's header row, for the file list's jumps. */
  fileStarts: number[];
}

/** What a file without hunks says instead, so a file is never silently empty. */
function emptyNote(file: DiffFile): string | undefined {
  if (file.binary) return 'Binary file: not shown.';
  if (file.truncated) return 'Too large to show here; its counts still hold.';
  if (file.hunks.length === 0) return file.status === 'renamed' ? 'Renamed, content unchanged.' : 'No content change.';
  return undefined;
}

export function diffRows(files: readonly DiffFile[], layout: DiffLayout): DiffRows {
  const rows: DiffRow[] = [];
  const fileStarts: number[] = [];
  files.forEach((file, index) => {
    fileStarts.push(rows.length);
    rows.push({ kind: 'file', file: index });
    const note = emptyNote(file);
    if (note) rows.push({ kind: 'note', file: index, text: note });
    for (const hunk of file.hunks) {
      rows.push({ kind: 'hunk', file: index, text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@` });
      let oldLine = hunk.oldStart;
      let newLine = hunk.newStart;
      if (layout === 'unified') {
        for (const line of hunk.lines) {
          const row: DiffRow = { kind: 'line', file: index, line: line.kind, text: line.text };
          if (line.kind !== 'add') row.oldLine = oldLine++;
          if (line.kind !== 'del') row.newLine = newLine++;
          rows.push(row);
        }
        continue;
      }
      // Split: a run of deletions and the run of additions after it share rows, side by side.
      let dels: DiffCell[] = [];
      let adds: DiffCell[] = [];
      const flush = () => {
        for (let at = 0; at < Math.max(dels.length, adds.length); at++)
          rows.push({ kind: 'pair', file: index, old: dels[at], new: adds[at] });
        dels = [];
        adds = [];
      };
      for (const line of hunk.lines) {
        if (line.kind === 'del') {
          if (adds.length > 0) flush();
          dels.push({ kind: 'del', line: oldLine++, text: line.text });
        } else if (line.kind === 'add') adds.push({ kind: 'add', line: newLine++, text: line.text });
        else {
          flush();
          rows.push({
            kind: 'pair',
            file: index,
            old: { kind: 'context', line: oldLine++, text: line.text },
            new: { kind: 'context', line: newLine++, text: line.text },
          });
        }
      }
      flush();
    }
  });
  return { rows, fileStarts };
}

/** The line a comment on this row names: the new side when it has one (context, additions), else the old. */
export function commentLineOf(row: DiffRow, side?: CommentSide): { line: number; side: CommentSide; text: string } | undefined {
  if (row.kind === 'line') {
    if (side !== 'old' && row.newLine !== undefined) return { line: row.newLine, side: 'new', text: row.text };
    if (row.oldLine !== undefined) return { line: row.oldLine, side: 'old', text: row.text };
    return undefined;
  }
  if (row.kind !== 'pair') return undefined;
  const cell = side === 'old' ? row.old : side === 'new' ? row.new : (row.new ?? row.old);
  if (!cell) return undefined;
  return { line: cell.line, side: cell === row.new ? 'new' : 'old', text: cell.text };
}
