/**
 * The worktree creations under way in this server, by thread: a prompt that arrives while its thread's worktree
 * is being made waits for it (issue 38: "the first prompt waits for `ready`") instead of starting another.
 */
export class CreatingWorkspaces {
  private readonly pending = new Map<string, Promise<unknown>>();

  /** Runs `work` as the thread's creation; one already under way is joined instead. */
  run<T>(threadId: string, work: () => Promise<T>): Promise<T> {
    const running = this.pending.get(threadId);
    if (running) return running as Promise<T>;
    const run = work().finally(() => this.pending.delete(threadId));
    this.pending.set(threadId, run);
    return run;
  }

  /** Resolves once the thread's creation (if any) settled, whatever its outcome. */
  async settled(threadId: string): Promise<void> {
    await this.pending.get(threadId)?.catch(() => undefined);
  }
}

/** One per process: every route that prompts, archives or deletes a thread sees the same creations. */
export const creatingWorkspaces = new CreatingWorkspaces();
