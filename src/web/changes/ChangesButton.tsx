import { GitCompare } from 'lucide-preact';
import type { ChangesState } from './changesState';

/**
 * Opens and closes the Changes view. In the thread's header on a wide screen; on a phone beside Send instead
 * (changes.css shows one of the two), so the header keeps its height.
 */
export function ChangesButton({ state, place }: { state: ChangesState; place: 'head' | 'composer' }) {
  const drafts = state.drafts.comments.value.length;
  return (
    <button
      type="button"
      class={`small secondary with-icon changes-button in-${place}${state.open.value ? ' pressed' : ''}`}
      aria-expanded={state.open.value}
      aria-controls="changes-view"
      title="Changes: the thread's diff, to review and comment"
      onClick={() => state.toggle()}
    >
      <GitCompare size={15} aria-hidden="true" />
      <span class="button-label">Changes</span>
      {drafts > 0 && <span class="draft-count"> ({drafts})</span>}
    </button>
  );
}
