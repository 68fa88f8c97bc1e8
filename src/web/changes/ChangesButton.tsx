import { GitCompare } from 'lucide-preact';
import type { ChangesState } from './changesState';

/** Opens and closes the Changes view; an icon in the thread's header, so the header keeps its height on a phone. */
export function ChangesButton({ state }: { state: ChangesState }) {
  const drafts = state.drafts.comments.value.length;
  return (
    <button
      type="button"
      class={`small secondary changes-button${state.open.value ? ' pressed' : ''}`}
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
