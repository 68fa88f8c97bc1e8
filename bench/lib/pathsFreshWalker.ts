import { fork, type ChildProcess } from 'node:child_process';
import { createPathLister } from '../../src/daemon/pathLister';

/**
 * Fresh walks (no cache) in a child process started once, so a walk neither holds up the event loop of the
 * server being measured nor pays a process start per change.
 */
export interface FreshWalker {
  /** `host.list_paths` of a fresh walk, as JSON text. */
  listPaths(root: string, query: string, limit: number): Promise<string>;
  close(): void;
}

export function startFreshWalker(): FreshWalker {
  const child: ChildProcess = fork(__filename, ['--fresh-walker'], { execArgv: ['-r', 'ts-node/register/transpile-only'] });
  const waiting = new Map<number, (answer: string) => void>();
  let next = 0;
  child.on('message', ({ id, answer }: { id: number; answer: string }) => {
    waiting.get(id)?.(answer);
    waiting.delete(id);
  });
  return {
    listPaths: (root, query, limit) =>
      new Promise((resolve) => {
        next += 1;
        waiting.set(next, resolve);
        child.send({ id: next, root, query, limit });
      }),
    close: () => child.kill(),
  };
}

if (process.argv.includes('--fresh-walker')) {
  const lister = createPathLister({ cache: false });
  process.on('message', async ({ id, root, query, limit }: { id: number; root: string; query: string; limit: number }) => {
    process.send!({ id, answer: JSON.stringify(await lister.listPaths({ path: root, query, limit })) });
  });
}
