import { useState } from 'preact/hooks';
import { FileIcon } from '../components/icons/FileIcon';
import { useVirtualRows } from './hooks/useVirtualRows';
import type { DiffFile } from './types';

/** Every file row's height in pixels; changes.css sets the same. */
const FILE_ROW_HEIGHT = 26;
const STATUS_LETTER = { added: 'A', modified: 'M', deleted: 'D', renamed: 'R' } as const;

/**
 * The changed files with their +/− counts, a listbox (arrows move, Enter or a click shows the file in the
 * diff), only the rows on screen rendered: a 1,000-file change keeps the page small.
 */
export function FileList({ files, onPick }: { files: readonly DiffFile[]; onPick: (index: number) => void }) {
  const window = useVirtualRows(files.length, FILE_ROW_HEIGHT);
  const [active, setActive] = useState(0);
  const move = (to: number) => {
    const next = Math.max(0, Math.min(files.length - 1, to));
    setActive(next);
    window.scrollToRow(next, 'nearest');
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown') move(active + 1);
    else if (event.key === 'ArrowUp') move(active - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(files.length - 1);
    else if (event.key === 'Enter') onPick(active);
    else return;
    event.preventDefault();
  };
  return (
    <div
      class="changed-files"
      ref={(element) => void (window.scroller.current = element)}
      role="listbox"
      aria-label="Changed files"
      tabIndex={0}
      aria-activedescendant={active >= window.start && active < window.end ? `changed-file-${active}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: `${window.before}px` }} aria-hidden="true" />
      {files.slice(window.start, window.end).map((file, offset) => {
        const index = window.start + offset;
        const slash = file.path.lastIndexOf('/');
        return (
          <div
            key={index}
            id={`changed-file-${index}`}
            role="option"
            aria-selected={index === active}
            class={`changed-file ${file.status}${index === active ? ' active' : ''}`}
            title={file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}
            onClick={() => (setActive(index), onPick(index))}
          >
            <FileIcon name={file.path.slice(slash + 1)} />
            <span class="changed-name">{file.path.slice(slash + 1)}</span>
            <span class="changed-folder">{slash > 0 ? file.path.slice(0, slash) : ''}</span>
            <span class="diff-counts" aria-label={`${file.status}, ${file.additions} added, ${file.deletions} deleted`}>
              <span class="status-letter">{STATUS_LETTER[file.status]}</span> <ins>+{file.additions}</ins> <del>−{file.deletions}</del>
            </span>
          </div>
        );
      })}
      <div style={{ height: `${window.after}px` }} aria-hidden="true" />
    </div>
  );
}
