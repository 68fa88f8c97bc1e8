import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ChangesState } from './changesState';
import { commentLineOf } from './diffRows';
import { commentKey, DiffRowView, rowId } from './DiffRowView';
import { useVirtualRows } from './hooks/useVirtualRows';
import { lineHighlighter } from './lineHighlight';
import type { CommentSide, DiffFile } from './types';

/** Every diff row's height in pixels; changes.css sets the same (`--diff-row`). */
export const DIFF_ROW_HEIGHT = 20;

/**
 * The diff as one list of fixed-height rows, only those on screen rendered (issue 38). A click on a line, or
 * Enter on the line the arrows moved to, opens a comment on it; `jump` (a file chosen in the list) scrolls its
 * header to the top.
 */
export function DiffList({ state, files, jump }: { state: ChangesState; files: readonly DiffFile[]; jump: { row: number } | null }) {
  const { rows } = state.rows.value;
  const window = useVirtualRows(rows.length, DIFF_ROW_HEIGHT);
  const [active, setActive] = useState(0);
  const highlight = useMemo(() => lineHighlighter(), [files]);
  const commented = useMemo(
    () => new Set(state.drafts.comments.value.map((comment) => commentKey(comment.path, comment.side, comment.line))),
    [state.drafts.comments.value],
  );
  useEffect(() => {
    if (!jump) return;
    setActive(jump.row);
    window.scrollToRow(jump.row, 'top');
  }, [jump]);
  useEffect(() => setActive(0), [rows]);

  const comment = (index: number, side?: CommentSide) => {
    const row = rows[index];
    setActive(index);
    const at = row && commentLineOf(row, side);
    if (!row || !at) return;
    state.editing.value = null;
    state.target.value = { path: files[row.file]!.path, line: at.line, side: at.side, scope: state.scope.value };
  };
  const move = (to: number) => {
    const next = Math.max(0, Math.min(rows.length - 1, to));
    setActive(next);
    window.scrollToRow(next, 'nearest');
  };
  const page = Math.max(1, Math.floor((window.scroller.current?.clientHeight ?? 400) / DIFF_ROW_HEIGHT) - 1);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') move(active + 1);
    else if (event.key === 'ArrowUp') move(active - 1);
    else if (event.key === 'PageDown') move(active + page);
    else if (event.key === 'PageUp') move(active - page);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(rows.length - 1);
    else if (event.key === 'Enter') comment(active);
    else return;
    event.preventDefault();
  };

  if (rows.length === 0) return null;
  return (
    <div
      class="diff-scroll"
      ref={(element) => void (window.scroller.current = element)}
      role="listbox"
      aria-label="Diff (arrows move, Enter comments on a line)"
      tabIndex={0}
      aria-activedescendant={active >= window.start && active < window.end ? rowId(active) : undefined}
      onKeyDown={onKeyDown}
    >
      <div class="diff-spacer" style={{ height: `${window.before}px` }} aria-hidden="true" />
      {rows.slice(window.start, window.end).map((row, offset) => {
        const index = window.start + offset;
        return (
          <DiffRowView
            key={index}
            row={row}
            index={index}
            files={files}
            active={index === active}
            highlight={highlight}
            commented={commented}
            onComment={comment}
          />
        );
      })}
      <div class="diff-spacer" style={{ height: `${window.after}px` }} aria-hidden="true" />
    </div>
  );
}
