import type { CommentSide } from './types';
import type { DiffCell, DiffRow } from './diffRows';
import type { DiffFile } from './types';

export interface RowProps {
  row: DiffRow;
  index: number;
  files: readonly DiffFile[];
  active: boolean;
  highlight: (path: string, text: string) => string;
  /** `path:side:line` of every line that holds a draft comment. */
  commented: ReadonlySet<string>;
  onComment: (index: number, side?: CommentSide) => void;
}

export const rowId = (index: number) => `diff-row-${index}`;
export const commentKey = (path: string, side: CommentSide, line: number) => `${path}:${side}:${line}`;

const KIND_WORD = { add: 'Added', del: 'Deleted', context: 'Line' } as const;

/** One screen row of the diff (a file's header, a hunk's, a note, a line or a split pair), of one fixed height. */
export function DiffRowView({ row, index, files, active, highlight, commented, onComment }: RowProps) {
  const file = files[row.file]!;
  const common = { id: rowId(index), role: 'option' as const, 'aria-selected': active };
  if (row.kind === 'file')
    return (
      <div {...common} aria-disabled="true" class="diff-row diff-file-row">
        <code title={file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}>
          {file.oldPath ? `${file.oldPath} → ` : ''}
          {file.path}
        </code>{' '}
        <span class="diff-counts">
          {file.status} <ins>+{file.additions}</ins> <del>−{file.deletions}</del>
        </span>
      </div>
    );
  if (row.kind === 'hunk' || row.kind === 'note')
    return (
      <div {...common} aria-disabled="true" class={`diff-row diff-${row.kind}-row`}>
        {row.text}
      </div>
    );
  if (row.kind === 'line') {
    const line = row.newLine ?? row.oldLine ?? 0;
    const side: CommentSide = row.newLine !== undefined ? 'new' : 'old';
    const marked = commented.has(commentKey(file.path, side, line));
    return (
      <div
        {...common}
        class={`diff-row diff-line ${row.line}${active ? ' active' : ''}${marked ? ' commented' : ''}`}
        aria-label={`${KIND_WORD[row.line]} ${line}: ${row.text}`}
        onClick={() => onComment(index)}
      >
        <span class="ln">{row.oldLine ?? ''}</span>
        <span class="ln">{row.newLine ?? ''}</span>
        <code dangerouslySetInnerHTML={{ __html: highlight(file.path, row.text) }} />
      </div>
    );
  }
  if (row.kind !== 'pair') return null;
  const half = (cell: DiffCell | undefined, side: CommentSide) => {
    const marked = cell && commented.has(commentKey(file.path, side, cell.line));
    return (
      <div
        class={`diff-half ${side} ${cell?.kind ?? 'empty'}${marked ? ' commented' : ''}`}
        onClick={cell ? (event) => (event.stopPropagation(), onComment(index, side)) : undefined}
      >
        <span class="ln">{cell?.line ?? ''}</span>
        {cell && <code dangerouslySetInnerHTML={{ __html: highlight(file.path, cell.text) }} />}
      </div>
    );
  };
  const cell = row.new ?? row.old;
  return (
    <div
      {...common}
      class={`diff-row diff-pair${active ? ' active' : ''}`}
      aria-label={cell ? `${KIND_WORD[cell.kind]} ${cell.line}: ${cell.text}` : ''}
      onClick={() => onComment(index)}
    >
      {half(row.old, 'old')}
      {half(row.new, 'new')}
    </div>
  );
}
