/** The new-thread form's workspace choice (issue 38): the project's checkout, or a worktree of its own. */
export interface WorkspaceChoice {
  worktree: boolean;
  baseRef: string;
  branch: string;
}

export const CHECKOUT: WorkspaceChoice = { worktree: false, baseRef: '', branch: '' };

/** What `POST /threads` takes for the choice: `baseRef` and `branch` only when given (the server's defaults else). */
export function workspaceBody(
  choice: WorkspaceChoice,
): { workspace: 'checkout' } | { workspace: 'worktree'; baseRef?: string; branch?: string } {
  if (!choice.worktree) return { workspace: 'checkout' };
  return {
    workspace: 'worktree',
    ...(choice.baseRef.trim() ? { baseRef: choice.baseRef.trim() } : {}),
    ...(choice.branch.trim() ? { branch: choice.branch.trim() } : {}),
  };
}

/** "Run in a worktree", and then the base branch and the new branch's name. */
export function WorktreeFields({ value, onChange }: { value: WorkspaceChoice; onChange: (next: WorkspaceChoice) => void }) {
  return (
    <fieldset class="worktree-fields">
      <legend class="visually-hidden">Workspace</legend>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={value.worktree}
          onChange={(event) => onChange({ ...value, worktree: event.currentTarget.checked })}
        />
        Run in a worktree <span class="muted">(a folder and branch of its own; the checkout stays as it is)</span>
      </label>
      {value.worktree && (
        <>
          <label for="thread-base-ref">Base branch</label>
          <input
            id="thread-base-ref"
            placeholder="The checkout's current HEAD when left empty"
            value={value.baseRef}
            onInput={(event) => onChange({ ...value, baseRef: event.currentTarget.value })}
          />
          <label for="thread-branch">New branch (optional)</label>
          <input
            id="thread-branch"
            placeholder="Left empty: the server's default"
            value={value.branch}
            onInput={(event) => onChange({ ...value, branch: event.currentTarget.value })}
          />
        </>
      )}
    </fieldset>
  );
}
