import { mkdirSync, writeFileSync, chmodSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { createHostDispatcher, type HostHandlers } from '../../../src/daemon/hostDispatcher';
import { createGitWing, type GitWing } from '../../../src/daemon/git/gitHandlers';
import { gitOutput } from '../../helpers/git/gitRepo';

/** Runs real git in `cwd` and answers its stdout (throws on a non-zero exit). */
export const git = gitOutput;

/**
 * A project checkout as users have them: a few tracked files (one executable), an ignored `.env` named by
 * `.worktreeinclude`, one commit on `main`, and a worktree the user made by hand beside it (`user-wt`).
 */
export function makeProject(root: string): { checkout: string; userWorktree: string } {
  const checkout = path.join(root, 'project');
  mkdirSync(path.join(checkout, 'src'), { recursive: true });
  git(checkout, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(checkout, 'README.md'), '# project\n');
  writeFileSync(path.join(checkout, 'src', 'lines.txt'), Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  writeFileSync(path.join(checkout, 'run.sh'), '#!/bin/sh\necho run\n');
  chmodSync(path.join(checkout, 'run.sh'), 0o755);
  symlinkSync('README.md', path.join(checkout, 'readme-link'));
  writeFileSync(path.join(checkout, '.gitignore'), '.env\nnode_modules/\n');
  writeFileSync(path.join(checkout, '.worktreeinclude'), '.env\n');
  writeFileSync(path.join(checkout, '.env'), 'SECRET=1\n');
  git(checkout, 'add', '-A');
  git(checkout, 'commit', '-q', '-m', 'first');
  const userWorktree = path.join(root, 'user-wt');
  git(checkout, 'worktree', 'add', '-q', '-b', 'user-branch', userWorktree);
  writeFileSync(path.join(userWorktree, 'user-work.txt'), 'mine\n');
  return { checkout, userWorktree };
}

/** Registered worktree paths of the repository (`git worktree list --porcelain`). */
export function worktreeList(checkout: string): string[] {
  return git(checkout, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((line) => line.startsWith('worktree '))
    .map((line) => line.slice('worktree '.length));
}

const unused = async (): Promise<never> => {
  throw new Error('not used in git tests');
};

/** The git wing behind the real dispatcher: `call` answers a result or throws `{ hostCode, message }`. */
export function gitDaemon(dataDir: string): {
  wing: GitWing;
  logs: string[];
  /** With `onPart`, the command is asked for its answer in parts (a partialResultToken) and they go there. */
  call(method: string, params: unknown, onPart?: (part: any) => void): Promise<any>;
} {
  const logs: string[] = [];
  const wing = createGitWing({ dataDir, log: (message) => logs.push(message) });
  const handlers = new Proxy({ ...wing.handlers } as unknown as HostHandlers, {
    get: (target, key) => (target as any)[key] ?? unused,
  });
  const dispatch = createHostDispatcher(handlers, (message) => logs.push(message));
  let id = 1;
  return {
    wing,
    logs,
    async call(method, params, onPart) {
      const token = id++;
      const asked = onPart ? { ...(params as object), partialResultToken: token } : params;
      const context = onPart ? { progress: (to: string | number, part: unknown) => to === token && onPart(part) } : {};
      const response = (await dispatch({ jsonrpc: '2.0', id: token, method, params: asked }, context)) as any;
      if (response.error)
        throw Object.assign(new Error(response.error.message), { hostCode: response.error.data?.hostCode, rpc: response.error });
      return response.result;
    },
  };
}
