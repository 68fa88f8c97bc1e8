import { deletionText } from '../../state/deletionText';
import { deleteThreadHere } from '../../state/threadLifecycle';
import { ConfirmDialog } from '../ConfirmDialog';

/**
 * Asks before a delete, saying what goes: the title and how many turns. "Delete" sends
 * `DELETE /threads/:id`; on 204 the thread leaves the lists and its view closes.
 */
export function DeleteThreadDialog({
  threadId,
  title,
  turns,
  onClose,
}: {
  threadId: string;
  title: string;
  turns: number | null;
  onClose(): void;
}) {
  return (
    <ConfirmDialog
      id="delete"
      heading="Delete thread?"
      confirm="Delete"
      busy="Deleting…"
      act={() => deleteThreadHere(threadId, title)}
      onClose={onClose}
    >
      {deletionText(title, turns)}
    </ConfirmDialog>
  );
}
