import { promises as fs } from 'node:fs';
import path from 'node:path';
import { HostCommandError } from '../../../protocol/hostErrors';
import { readHeadFiles, type HeadFiles } from '../gitFiles/headFiles';
import { GitCommandFailed, runGit } from '../runGit';

/** Where a folder's work tree stands: what a commit there starts from and moves. */
export type Head = HeadFiles;

/** Read from git's files when they are in the plain layout (no process), else in one git call. */
export async function headOf(cwd: string): Promise<Head> {
  return readHeadFiles(cwd) ?? headFromGit(cwd);
}

async function headFromGit(cwd: string): Promise<Head> {
  let lines: string[];
  try {
    const { stdout } = await runGit(
      [
        'rev-parse',
        '--path-format=absolute',
        '--git-dir',
        '--git-common-dir',
        '--git-path',
        'index',
        'HEAD^{commit}',
        '--symbolic-full-name',
        'HEAD',
      ],
      { cwd },
    );
    lines = stdout.trim().split('\n');
  } catch (error) {
    if (!(error instanceof GitCommandFailed)) throw error;
    if (/not a git repository/i.test(error.stderr)) throw new HostCommandError('not_a_git_repository', `${cwd} is not in a git work tree`);
    throw new HostCommandError('git_failed', `${cwd} has no commit yet: make the first one with git itself (${error.stderr.trim()})`);
  }
  // A detached HEAD's symbolic name is `HEAD` itself.
  const [gitDir, commonDir, indexFile, commit, symbolic] = lines as [string, string, string, string, string];
  const branch = symbolic.startsWith('refs/heads/') ? symbolic.slice('refs/heads/'.length) : null;
  return {
    gitDir: path.resolve(cwd, gitDir),
    commonDir: await fs.realpath(path.resolve(cwd, commonDir)),
    indexFile: path.resolve(cwd, indexFile),
    ref: branch ? symbolic : 'HEAD',
    branch,
    commit,
  };
}

/**
 * The user's own name and email when their git config has them (the commit is theirs, as `git commit` would
 * write it); otherwise the service's, which runGit fixes for every call.
 */
export async function commitIdentity(cwd: string): Promise<Record<string, string>> {
  const { stdout } = await runGit(['config', '--get-regexp', '^user\\.(name|email)$'], { cwd }).catch(() => ({ stdout: '' }));
  // Every level's value is listed, system to local: the last one wins, as `git config --get` answers.
  const value = (key: string) =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith(`${key} `))
      .pop()
      ?.slice(key.length + 1);
  const [name, email] = [value('user.name'), value('user.email')];
  return {
    ...(name ? { GIT_AUTHOR_NAME: name, GIT_COMMITTER_NAME: name } : {}),
    ...(email ? { GIT_AUTHOR_EMAIL: email, GIT_COMMITTER_EMAIL: email } : {}),
  };
}
