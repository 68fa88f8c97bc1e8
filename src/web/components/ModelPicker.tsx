import { Check } from 'lucide-preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ModelChoice } from '../api/types';
import { matchingModels, SHOWN_LIMIT } from '../state/modelChoices';

/**
 * The thread form's model picker: a filter box over a list (a combobox), the models this host can run
 * first and alone, the rest behind "Show all". With none runnable it says what to set, rather than
 * offering a model whose first prompt would fail (issue 29).
 */
export function ModelPicker({ choices, value, onChange }: { choices: ModelChoice[]; value: string; onChange: (value: string) => void }) {
  const [query, setQuery] = useState('');
  const [showAll, setShowAll] = useState(false);
  const usableCount = choices.filter((choice) => choice.available).length;
  const matching = matchingModels(choices, query, showAll);
  const shown = matching.slice(0, SHOWN_LIMIT);
  const chosen = choices.find((choice) => choice.value === value);
  const optionId = (index: number) => `model-option-${index}`;
  const activeIndex = shown.findIndex((choice) => choice.value === value);
  const listed = usableCount > 0 || showAll;
  const list = useRef<HTMLUListElement>(null);
  // The chosen row is scrolled into the list's view, not the page's: typing elsewhere in the form never jumps.
  useEffect(() => {
    const row = list.current?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!list.current || !row) return;
    const { scrollTop, clientHeight } = list.current;
    if (row.offsetTop < scrollTop) list.current.scrollTop = row.offsetTop;
    else if (row.offsetTop + row.offsetHeight > scrollTop + clientHeight)
      list.current.scrollTop = row.offsetTop + row.offsetHeight - clientHeight;
  }, [value, showAll]);

  const move = (step: number) => {
    const next = shown[Math.min(shown.length - 1, Math.max(0, activeIndex + step))];
    if (next) onChange(next.value);
  };
  return (
    <div class="model-picker">
      <input
        id="thread-model"
        role="combobox"
        aria-controls={listed ? 'model-options' : undefined}
        aria-expanded={listed}
        aria-autocomplete="list"
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        aria-describedby="model-chosen"
        placeholder={listed ? 'Filter models…' : 'No model this host can run'}
        value={query}
        autocomplete="off"
        spellcheck={false}
        onInput={(event) => setQuery(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            move(event.key === 'ArrowDown' ? 1 : -1);
          } else if (event.key === 'Enter') {
            // Enter picks the best match of the filter; it does not send the form half filled in.
            event.preventDefault();
            if (activeIndex < 0 && shown[0]) onChange(shown[0].value);
          }
        }}
      />
      <p id="model-chosen" class="model-chosen">
        {chosen ? (
          <>
            Chosen: <strong>{chosen.label}</strong>
            {!chosen.available && <span class="no-key"> · no key on this host</span>}
          </>
        ) : (
          'No model chosen.'
        )}
      </p>
      {!listed && <NoUsableModel />}
      {listed && (
        <ul id="model-options" role="listbox" aria-label="Models" class="model-options" ref={list}>
          {shown.map((choice, index) => (
            <li
              key={choice.value}
              id={optionId(index)}
              role="option"
              aria-selected={choice.value === value}
              class={choice.value === value ? 'active' : undefined}
              onClick={() => onChange(choice.value)}
            >
              <Check class="check" size={14} aria-hidden="true" />
              <span class="model-label">{choice.label}</span>
              {!choice.available && <span class="no-key">no key</span>}
            </li>
          ))}
          {shown.length === 0 && <li class="muted">No model matches “{query}”.</li>}
          {matching.length > shown.length && (
            <li class="muted">{(matching.length - shown.length).toLocaleString()} more: type to narrow the list.</li>
          )}
        </ul>
      )}
      {choices.length > usableCount && (
        <button type="button" class="link-button" onClick={() => setShowAll(!showAll)} aria-expanded={showAll}>
          {showAll
            ? `Show only the ${usableCount} this host can run`
            : `Show all ${choices.length.toLocaleString()} model${choices.length === 1 ? '' : 's'}`}
        </button>
      )}
    </div>
  );
}

/** What to set when the host can run none of its catalog: a key, or a local model (docs/pi.md). */
function NoUsableModel() {
  return (
    <div class="model-help" role="note">
      <p>
        <strong>No model can run on this host yet.</strong> Give the host a provider's key in its environment (for example{' '}
        <code>ANTHROPIC_API_KEY</code> or <code>OPENAI_API_KEY</code>) and restart it, or point pi at a local OpenAI-compatible server
        (Ollama, llama.cpp's server, LM Studio) in <code>~/.pi/agent/models.json</code>: <code>docs/pi.md</code> in the service's folder has
        the recipe.
      </p>
    </div>
  );
}
