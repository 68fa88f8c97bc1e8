import type { ComponentChildren } from 'preact';
import { createPortal } from 'preact/compat';
import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { go, threadHref } from '../state/route';
import { forkAtTurn, revertToTurn, undoRevert } from './api';
import type { RewindLog } from './rewindLog';

type Asking = 'fork' | 'revert' | 'unrevert' | null;

interface TurnActionsProps {
  threadId: string;
  turnId: string;
  rewind: RewindLog;
  running: boolean;
}

/**
 * A turn's own actions (issue 39): Fork from here (a new thread with this turn and those before it, its files
 * as they were at this turn's end) and Revert to before this turn (the files as at its start; this turn and
 * the later ones dimmed, their rows kept), each after a confirmation saying what changes. On the turn the
 * newest revert went back before, "Undo revert" too.
 */
export function TurnActions({ threadId, turnId, rewind, running }: TurnActionsProps) {
  const [asking, setAsking] = useState<Asking>(null);
  const undone = rewind.undone.value.has(turnId);
  const newest = rewind.newest.value;
  const close = () => setAsking(null);
  const doneThen = (act: () => Promise<unknown>) => async () => {
    await act();
    close();
  };
  return (
    <div class="turn-actions">
      {!undone && (
        <button type="button" class="link" onClick={() => setAsking('fork')}>
          Fork from here
        </button>
      )}
      {!undone && !running && (
        <button type="button" class="link" onClick={() => setAsking('revert')}>
          Revert to before this turn
        </button>
      )}
      {newest?.turnId === turnId && (
        <button type="button" class="link" onClick={() => setAsking('unrevert')}>
          Undo revert
        </button>
      )}
      {asking === 'fork' && (
        <OnPage>
          <ConfirmDialog
            id={`fork-${turnId}`}
            heading="Fork from here?"
            confirm="Fork"
            busy="Forking…"
            act={async () => go(threadHref((await forkAtTurn(threadId, turnId)).id))}
            onClose={close}
          >
            A new thread starts with this conversation up to the end of this turn, its files as they were then, on a branch of its own. This
            thread and its files stay as they are.
          </ConfirmDialog>
        </OnPage>
      )}
      {asking === 'revert' && (
        <OnPage>
          <ConfirmDialog
            id={`revert-${turnId}`}
            heading="Revert to before this turn?"
            confirm="Revert files"
            busy="Reverting…"
            act={doneThen(() => revertToTurn(threadId, turnId))}
            onClose={close}
          >
            The thread’s files go back to how they were when this turn started: what this turn and every later one changed, and any
            uncommitted edit since, is undone (kept aside: “Undo revert” brings it back until the files change again). The conversation
            stays, those turns dimmed; the agent is told in your next message.
          </ConfirmDialog>
        </OnPage>
      )}
      {asking === 'unrevert' && (
        <OnPage>
          <ConfirmDialog
            id={`unrevert-${turnId}`}
            heading="Undo the revert?"
            confirm="Undo revert"
            busy="Undoing…"
            act={doneThen(() => undoRevert(threadId))}
            onClose={close}
          >
            The thread’s files go back to how they were just before the revert, uncommitted edits included.
          </ConfirmDialog>
        </OnPage>
      )}
    </div>
  );
}

/**
 * A dialog on the page itself, not inside its turn: a turn is `content-visibility: auto` (paint containment),
 * which would clip a fixed backdrop to the turn's box.
 */
function OnPage({ children }: { children: ComponentChildren }) {
  return createPortal(children, document.body);
}
