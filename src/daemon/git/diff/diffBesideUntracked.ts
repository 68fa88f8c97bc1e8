import { spawn } from 'node:child_process';
import { FIXED_ENV, GitCommandFailed, gitOutputOf, runGit, type GitOptions } from '../runGit';

/** `git ls-files` of the untracked files, not ignored, NUL-separated, named from the top of the work tree. */
const LIST_UNTRACKED = ['ls-files', '--others', '--exclude-standard', '-z', '--full-name'];

/**
 * One shell runs both: the listing in the background, its output on fd 3 and its exit status on fd 4, while
 * the shell becomes the diff (`exec`, fds 3 and 4 closed, so the listing's pipes end with the listing). The
 * diff's arguments reach git as "$@", never read by the shell.
 */
const BOTH = `(git -c core.quotePath=false ${LIST_UNTRACKED.join(' ')} >&3; echo "$?" >&4) & exec git -c core.quotePath=false "$@" 3>&- 4>&-`;

/**
 * A diff (its stdout to `onStdout` as git writes it) and the list of untracked files beside it, from one
 * process start instead of two. Each start of a process the server's size blocks the event loop 15–80 ms
 * (the spawn copies its page tables, slower for the second of two back to back), while git's output waits in
 * its pipe (bench:review). Without a POSIX shell (Windows) they are two git runs.
 */
export function diffBesideUntracked(
  diffArgs: readonly string[],
  options: GitOptions,
): { diff: Promise<void>; untracked: Promise<string[]> } {
  if (process.platform === 'win32') {
    return {
      diff: runGit(diffArgs, options).then(() => undefined),
      untracked: untrackedFiles(options.cwd),
    };
  }
  const child = spawn('sh', ['-c', BOTH, 'sh', ...diffArgs], {
    cwd: options.cwd,
    env: { ...process.env, ...FIXED_ENV, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe', 'pipe'],
  });
  const [listing, status] = [child.stdio[3], child.stdio[4]] as NodeJS.ReadableStream[];
  const untracked = new Promise<string[]>((resolve, reject) => {
    const names: Buffer[] = [];
    const code: Buffer[] = [];
    listing!.on('data', (chunk: Buffer) => names.push(chunk));
    status!.on('data', (chunk: Buffer) => code.push(chunk));
    let open = 2;
    const ended = () => {
      if (--open > 0) return;
      const exit = Buffer.concat(code).toString().trim();
      if (exit === '0') resolve(fileNames(Buffer.concat(names).toString('utf8')));
      else reject(new GitCommandFailed(LIST_UNTRACKED, Number(exit) || null, 'the listing of untracked files failed'));
    };
    listing!.once('close', ended);
    status!.once('close', ended);
  });
  const diff = gitOutputOf(child, diffArgs, options.onStdout).then(() => undefined);
  return { diff, untracked };
}

/** The untracked files of the work tree at `topLevel`, not ignored, in one git run of their own. */
export function untrackedFiles(topLevel: string): Promise<string[]> {
  return runGit(LIST_UNTRACKED, { cwd: topLevel }).then((out) => fileNames(out.stdout));
}

/** The listing's NUL-separated names (`-z`: any name reads exactly). */
const fileNames = (text: string) => text.split('\0').filter(Boolean);
