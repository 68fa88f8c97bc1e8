import { TextSearch } from 'lucide-preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../api/http';
import { searchThreads, type SearchHit, type SearchPage } from '../api/search';
import { go, threadHref } from '../state/route';
import { useLatestAnswer } from './combobox/useLatestAnswer';
import { useListbox } from './combobox/useListbox';

const DEBOUNCE_MS = 120;
const NO_HITS: SearchPage = { hits: [], nextCursor: null };
const KIND_LABEL: Record<SearchHit['kind'], string> = { title: 'Title', user: 'You', agent: 'Agent', command: 'Command' };

/**
 * Search across every thread (issue 31), opened with Ctrl+Shift+F (Cmd+Shift+F on macOS): each hit shows its
 * thread's title, who said it, and an excerpt with the matched words marked; picking one opens the thread.
 * Arrows move, Enter opens, Escape closes; "More" asks for the next page.
 */
export function SearchBox() {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [archived, setArchived] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const { answer, answered, version, error, setAnswer, setError } = useLatestAnswer<SearchPage>(
    query,
    (typed) => (!open ? null : typed.trim() === '' ? { now: NO_HITS } : { later: () => searchThreads(typed, { archived }) }),
    NO_HITS,
    DEBOUNCE_MS,
    [archived, open],
  );
  const { hits, nextCursor } = answer;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && !event.altKey && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        setOpen(true);
        setTimeout(() => input.current?.select());
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, []);

  const more = async () => {
    if (!nextCursor) return;
    try {
      const page = await searchThreads(query, { archived, cursor: nextCursor });
      setAnswer((before) => ({ hits: [...before.hits, ...page.hits], nextCursor: page.nextCursor }));
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  const pick = (hit: SearchHit | undefined) => {
    if (!hit) return;
    setOpen(false);
    go(threadHref(hit.threadId));
  };
  const { active, setActive, onKeyDown } = useListbox(hits, version, {
    onEnter: (hit) => answered === query && pick(hit),
    close: () => setOpen(false),
  });

  if (!open) return null;
  const optionId = (index: number) => `search-option-${index}`;
  return (
    <div class="backdrop" onMouseDown={(event) => event.target === event.currentTarget && setOpen(false)}>
      <div class="dialog quick-open search-box" role="dialog" aria-modal="true" aria-label="Search threads">
        <div class="search-field">
          <TextSearch size={16} aria-hidden="true" />
          <input
            ref={input}
            role="combobox"
            aria-label="Search threads"
            aria-expanded={hits.length > 0}
            aria-controls="search-results"
            aria-autocomplete="list"
            aria-activedescendant={hits.length > 0 ? optionId(active) : undefined}
            placeholder="Search every thread"
            value={query}
            autocomplete="off"
            spellcheck={false}
            autoFocus
            onInput={(event) => setQuery(event.currentTarget.value)}
            onKeyDown={onKeyDown}
          />
        </div>
        <label class="search-archived">
          <input type="checkbox" checked={archived} onChange={(event) => setArchived(event.currentTarget.checked)} /> Archived threads too
        </label>
        <ul id="search-results" role="listbox" aria-label="Hits">
          {hits.map((hit, index) => (
            <li
              key={`${hit.threadId}:${hit.seq}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              class={index === active ? 'active' : undefined}
              onMouseMove={() => setActive(index)}
              onClick={() => pick(hit)}
            >
              <span class="search-hit-head">
                <span class="result-name">{hit.title}</span>
                <span class="result-path">{KIND_LABEL[hit.kind]}</span>
              </span>
              <span class="search-excerpt">
                <MarkedExcerpt excerpt={hit.excerpt} marks={hit.marks} />
              </span>
            </li>
          ))}
        </ul>
        {nextCursor && (
          <button type="button" class="small secondary" onClick={() => void more()}>
            More
          </button>
        )}
        {error && (
          <p role="alert" class="error-text">
            {error}
          </p>
        )}
        {!error && query.trim() && answered === query && hits.length === 0 && <p class="muted">No match.</p>}
      </div>
    </div>
  );
}

/** The excerpt with each `[start, end)` range in a `<mark>`. */
function MarkedExcerpt({ excerpt, marks }: { excerpt: string; marks: SearchHit['marks'] }) {
  const parts = [];
  let at = 0;
  for (const [start, end] of marks) {
    if (start < at) continue;
    parts.push(excerpt.slice(at, start), <mark key={start}>{excerpt.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(excerpt.slice(at));
  return <>{parts}</>;
}
