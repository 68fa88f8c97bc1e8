/**
 * One queue per repository (keyed by its common git dir): every change to a repository's git metadata
 * (worktrees, branches, our refs) runs alone, so two threads of one project never race on `.git/worktrees`
 * or a ref, while work in different repositories goes on side by side.
 */
export interface RepoLocks {
  run<T>(repoKey: string, work: () => Promise<T>): Promise<T>;
  /** Resolves once every queued piece of work has ended. */
  idle(): Promise<void>;
}

export function createRepoLocks(): RepoLocks {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run(repoKey, work) {
      const before = tails.get(repoKey) ?? Promise.resolve();
      const result = before.then(work, work);
      const tail = result.catch(() => undefined);
      tails.set(repoKey, tail);
      void tail.then(() => {
        if (tails.get(repoKey) === tail) tails.delete(repoKey);
      });
      return result;
    },
    async idle() {
      while (tails.size > 0) await Promise.all([...tails.values()]);
    },
  };
}
