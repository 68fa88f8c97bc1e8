import path from 'node:path';
import { realpath } from 'node:fs/promises';
import { HostCommandError } from '../../protocol/hostErrors';
import { GitCommandFailed, gitSucceeds, runGit } from './runGit';

/** A git work tree as the daemon addresses it: its top folder and the repository's common git dir (the lock key). */
export interface GitWorkTree {
  topLevel: string;
  commonDir: string;
}

/** The work tree holding `folder`, or null when it is in none (or git cannot read it). */
export async function findWorkTree(folder: string): Promise<GitWorkTree | null> {
  try {
    const { stdout } = await runGit(['rev-parse', '--show-toplevel', '--git-common-dir'], { cwd: folder });
    const [topLevel, commonDir] = stdout.split('\n');
    if (!topLevel || !commonDir) return null;
    return { topLevel: await realpath(topLevel), commonDir: await realpath(path.resolve(folder, commonDir)) };
  } catch {
    return null;
  }
}

/** Like findWorkTree, but a folder outside git is the caller's `not_a_git_repository`. */
export async function requireWorkTree(folder: string): Promise<GitWorkTree> {
  const tree = await findWorkTree(folder);
  if (!tree) throw new HostCommandError('not_a_git_repository', `${folder} is not in a git work tree`);
  return tree;
}

/** A branch name git accepts, checked before it reaches any other command (never read as an option). */
export async function checkBranchName(cwd: string, branch: string): Promise<void> {
  if (branch.startsWith('-') || !(await gitSucceeds(['check-ref-format', '--branch', branch], { cwd }))) {
    throw new HostCommandError('invalid_branch', `git refuses the branch name ${JSON.stringify(branch)}`);
  }
}

/** The commit a user-named ref points at; `--end-of-options` keeps a ref like `--output=x` a ref. */
export async function resolveCommit(cwd: string, ref: string): Promise<string> {
  try {
    const { stdout } = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], { cwd });
    return stdout.trim();
  } catch (error) {
    if (error instanceof GitCommandFailed)
      throw new HostCommandError('unknown_ref', `git cannot resolve ${JSON.stringify(ref)} to a commit`);
    throw error;
  }
}

/** The commit at a branch's tip, or null when there is no such branch. */
export async function branchTip(cwd: string, branch: string): Promise<string | null> {
  try {
    const { stdout } = await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`], { cwd });
    return stdout.trim();
  } catch {
    return null;
  }
}

/** Git's own words as the host error a caller sees (`git_failed`); other errors pass unchanged. */
export function asHostError(error: unknown): unknown {
  if (error instanceof GitCommandFailed) return new HostCommandError('git_failed', error.message);
  return error;
}
