import { deleteThread, patchThread } from '../api/threadLifecycle';
import type { Thread, ThreadPatch } from '../api/types';
import { forgetThread, refreshDirectory } from './directory';
import { notice } from './notice';
import { go, route } from './route';

/** Threads this tab is deleting: their own `deleted` event must not read as a delete from elsewhere. */
const deletingHere = new Set<string>();

/** Applies a change and refreshes the lists (a rename or an archive moves the thread there at once). */
export async function changeThread(threadId: string, patch: ThreadPatch): Promise<Thread> {
  const changed = await patchThread(threadId, patch);
  await refreshDirectory();
  return changed;
}

/** Deletes the thread; on 204 it leaves the lists and its view closes. A refusal is thrown to the dialog. */
export async function deleteThreadHere(threadId: string, title: string): Promise<void> {
  deletingHere.add(threadId);
  try {
    await deleteThread(threadId);
  } catch (failure) {
    deletingHere.delete(threadId);
    throw failure;
  }
  closeThread(threadId, `Deleted “${title}”.`);
}

/**
 * The thread is gone (its stream said `deleted`, or its id answers 404): the lists forget it and, if it is
 * open, its view closes with a notice saying why.
 */
export function threadGone(threadId: string, title: string | undefined): void {
  if (deletingHere.has(threadId)) return;
  closeThread(threadId, `The thread “${title ?? threadId}” was deleted.`);
}

function closeThread(threadId: string, message: string): void {
  forgetThread(threadId);
  const current = route.value;
  if (current.page === 'thread' && current.threadId === threadId) {
    notice.value = message;
    go('#/');
  }
}
