import { useState } from 'preact/hooks';
import { messageOf } from '../../api/http';
import type { Thread, ThreadPatch } from '../../api/types';
import { changeThread } from '../../state/threadLifecycle';

/**
 * One `PATCH /threads/:id` at a time from a control: `pending` is the change under way (the control shows it
 * and stays disabled), and a refusal is kept as `problem` to say once, in place of the last one.
 */
export function useThreadChange(threadId: string, onChanged: (thread: Thread) => void) {
  const [pending, setPending] = useState<ThreadPatch | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const change = async (patch: ThreadPatch): Promise<boolean> => {
    setPending(patch);
    setProblem(null);
    try {
      onChanged(await changeThread(threadId, patch));
      return true;
    } catch (failure) {
      setProblem(messageOf(failure));
      return false;
    } finally {
      setPending(null);
    }
  };
  return { pending, problem, change, clearProblem: () => setProblem(null) };
}
