import { RefreshCw, X } from 'lucide-preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ChangesState } from './changesState';
import { CommentForm } from './CommentForm';
import { DiffList } from './DiffList';
import type { DiffLayout } from './diffRows';
import { FileList } from './FileList';
import type { DiffScope, ThreadWorkspace } from './types';

const SCOPE_LABEL: Record<DiffScope, string> = { uncommitted: 'Uncommitted', branch: 'Branch', turn: 'Last turn' };

/**
 * The "Changes" view beside the transcript (issue 38): the thread's changed files with +/− counts, a scope
 * switch (a checkout thread has no branch scope), a unified or split diff, and a comment on any line.
 */
export function ChangesView({ state, workspace }: { state: ChangesState; workspace: ThreadWorkspace | undefined }) {
  const [jump, setJump] = useState<{ row: number } | null>(null);
  const region = useRef<HTMLElement>(null);
  useEffect(() => {
    state.scopes.value = workspace?.kind === 'worktree' ? ['uncommitted', 'branch', 'turn'] : ['uncommitted', 'turn'];
  }, [workspace?.kind]);
  const load = state.load.value;
  const files = load.kind === 'loaded' ? load.diff.files : [];
  const added = files.reduce((sum, file) => sum + file.additions, 0);
  const deleted = files.reduce((sum, file) => sum + file.deletions, 0);
  const backToDiff = () => region.current?.querySelector<HTMLElement>('.diff-scroll')?.focus();

  return (
    <section
      id="changes-view"
      class="changes-view"
      aria-label="Changes"
      ref={region}
      onKeyDown={(event) => event.key === 'Escape' && !state.target.value && !state.editing.value && (state.open.value = false)}
    >
      <header class="changes-head">
        <fieldset class="segmented">
          <legend class="visually-hidden">Scope</legend>
          {state.scopes.value.map((scope) => (
            <label key={scope}>
              <input type="radio" name="diff-scope" checked={state.scope.value === scope} onChange={() => state.chooseScope(scope)} />
              {SCOPE_LABEL[scope]}
            </label>
          ))}
        </fieldset>
        <fieldset class="segmented">
          <legend class="visually-hidden">Layout</legend>
          {(['unified', 'split'] as DiffLayout[]).map((layout) => (
            <label key={layout}>
              <input
                type="radio"
                name="diff-layout"
                checked={state.layout.value === layout}
                onChange={() => (state.layout.value = layout)}
              />
              {layout === 'unified' ? 'Unified' : 'Split'}
            </label>
          ))}
        </fieldset>
        <span class="changes-total muted" aria-live="polite">
          {load.kind === 'loaded' && (
            <>
              {load.partial ? `first ${files.length} files` : `${files.length} ${files.length === 1 ? 'file' : 'files'}`}{' '}
              <ins>+{added}</ins> <del>−{deleted}</del>
              {load.partial ? ', reading the rest…' : load.diff.truncated ? ' (cut to fit)' : ''}
            </>
          )}
        </span>
        <button type="button" class="icon-button" aria-label="Refresh the changes" title="Refresh" onClick={() => void state.reload()}>
          <RefreshCw size={15} aria-hidden="true" />
        </button>
        <button type="button" class="icon-button" aria-label="Close changes" title="Close (Esc)" onClick={() => (state.open.value = false)}>
          <X size={16} aria-hidden="true" />
        </button>
      </header>
      {load.kind === 'loading' && <p class="muted changes-note">Loading the changes…</p>}
      {load.kind === 'failed' && (
        <p role="alert" class="error-text changes-note">
          {load.message}
        </p>
      )}
      {load.kind === 'loaded' && files.length === 0 && <p class="muted changes-note">No changes in this scope.</p>}
      {files.length > 0 && (
        <div class="changes-body">
          <FileList files={files} onPick={(index) => setJump({ row: state.rows.value.fileStarts[index] ?? 0 })} />
          <DiffList state={state} files={files} jump={jump} />
        </div>
      )}
      <CommentForm state={state} onDone={backToDiff} />
    </section>
  );
}
