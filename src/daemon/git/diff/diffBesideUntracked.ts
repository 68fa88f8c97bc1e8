import { spawn } from 'node:child_process';
import { FIXED_ENV, GitCommandFailed, runGit, type GitOptions } from '../runGit';

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
      untracked: runGit(LIST_UNTRACKED, { cwd: options.cwd }).then((out) => out.stdout.split('\0').filter(Boolean)),
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
      if (exit === '0') resolve(Buffer.concat(names).toString('utf8').split('\0').filter(Boolean));
      else reject(new GitCommandFailed(LIST_UNTRACKED, Number(exit) || null, 'the listing of untracked files failed'));
    };
    listing!.once('close', ended);
    status!.once('close', ended);
  });
  const diff = new Promise<void>((resolve, reject) => {
    const err: Buffer[] = [];
    let readerFailed: unknown;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (readerFailed !== undefined) return;
      try {
        options.onStdout?.(chunk);
      } catch (error) {
        // As runGit: a reader that throws ends git and is the answer.
        readerFailed = error;
        child.kill('SIGKILL');
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error) => reject(new GitCommandFailed(diffArgs, null, error.message)));
    child.once('close', (code) => {
      if (readerFailed !== undefined) reject(readerFailed);
      else if (code === 0) resolve();
      else reject(new GitCommandFailed(diffArgs, code, Buffer.concat(err).toString('utf8')));
    });
  });
  return { diff, untracked };
}
