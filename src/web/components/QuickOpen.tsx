import { Search } from 'lucide-preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { answerOf, client } from '../api/http';
import type { PathEntry } from '../api/types';
import { closeQuickOpen, quickOpen } from '../state/quickOpen';
import { useLatestAnswer } from './combobox/useLatestAnswer';
import { useListbox } from './combobox/useListbox';
import { FileIcon } from './icons/FileIcon';

const LIMIT = 30;
const DEBOUNCE_MS = 60;

/**
 * The quick-open dialog: a combobox over the project's path search (spec part 4). Each result is one line, as
 * in VS Code: a file-type icon, the name with its matched letters (the positions the API returns) in bold
 * accent, then the folder it is in, dimmed. Arrows move, Enter picks, Escape closes.
 */
export function QuickOpen() {
  const request = quickOpen.value;
  const [query, setQuery] = useState('');
  const {
    answer: results,
    answered,
    version,
    error,
    clear,
  } = useLatestAnswer<PathEntry[]>(
    query,
    (typed) =>
      request && {
        later: async () =>
          (
            await answerOf(
              client.GET('/api/v1/projects/{id}/paths', {
                params: { path: { id: request.project.id }, query: { query: typed, limit: String(LIMIT) } },
              }),
            )
          ).paths,
      },
    [],
    DEBOUNCE_MS,
    [request],
  );
  /** Enter typed before the answer to the latest query picks once it comes. */
  const enterPending = useRef(false);
  const input = useRef<HTMLInputElement>(null);

  const pick = (entry: PathEntry | undefined) => {
    if (!entry || !request) return;
    enterPending.current = false;
    closeQuickOpen();
    request.pick(entry);
  };
  const { active, onKeyDown, setActive } = useListbox(results, version, {
    onEnter: (entry) => {
      if (answered === query) pick(entry);
      else enterPending.current = true;
    },
    close: closeQuickOpen,
    holdTab: true, // focus stays in the dialog while it is open
  });
  useEffect(() => {
    if (enterPending.current && answered === query) pick(results[0]);
  }, [answered, results]);

  // Before the dialog paints, not after: a person (or a test) typing at once would have the first letters wiped
  // by a reset that landed late, and see the answer to an empty query.
  useLayoutEffect(() => {
    setQuery('');
    clear();
    enterPending.current = false;
    setActive(0);
    input.current?.focus();
  }, [request]);

  if (!request) return null;
  const optionId = (index: number) => `quick-open-option-${index}`;

  return (
    <div class="backdrop" onMouseDown={(event) => event.target === event.currentTarget && closeQuickOpen()}>
      <div class="dialog quick-open" role="dialog" aria-modal="true" aria-label="Quick open">
        <div class="search-field">
          <Search size={16} aria-hidden="true" />
          <input
            ref={input}
            role="combobox"
            aria-label="Search files"
            aria-expanded={results.length > 0}
            aria-controls="quick-open-results"
            aria-autocomplete="list"
            aria-activedescendant={results.length > 0 ? optionId(active) : undefined}
            placeholder={`Search files in ${request.project.name}`}
            value={query}
            autocomplete="off"
            spellcheck={false}
            onInput={(event) => setQuery(event.currentTarget.value)}
            onKeyDown={onKeyDown}
          />
        </div>
        <ul id="quick-open-results" role="listbox" aria-label="Files">
          {results.map((entry, index) => (
            <li
              key={entry.path}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              class={index === active ? 'active' : undefined}
              onMouseMove={() => setActive(index)}
              onClick={() => pick(entry)}
              ref={(element) => {
                if (index === active) element?.scrollIntoView({ block: 'nearest' });
              }}
            >
              <FileIcon name={entry.name} kind={entry.kind} />
              <span class="result-name">
                <Marked text={entry.name} positions={entry.positions} />
              </span>
              <span class="result-path">{folderOf(entry.path)}</span>
            </li>
          ))}
        </ul>
        {error && (
          <p role="alert" class="error-text">
            {error}
          </p>
        )}
        {!error && query && results.length === 0 && <p class="muted">No match.</p>}
      </div>
    </div>
  );
}

/** The name with each matched UTF-16 index in a `<mark>` (runs of neighbours share one). */
export function Marked({ text, positions }: { text: string; positions: number[] }) {
  const matched = new Set(positions);
  const parts: Array<{ text: string; mark: boolean }> = [];
  for (let index = 0; index < text.length; index += 1) {
    const mark = matched.has(index);
    const last = parts[parts.length - 1];
    if (last && last.mark === mark) last.text += text[index];
    else parts.push({ text: text[index]!, mark });
  }
  return <>{parts.map((part, index) => (part.mark ? <mark key={index}>{part.text}</mark> : <span key={index}>{part.text}</span>))}</>;
}

/** The folder a path is in, as the row's dimmed second part ("" for a top-level file). */
function folderOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut > 0 ? path.slice(0, cut) : '';
}
