import { promises as fs } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import { runGit } from '../runGit';

/**
 * Copies into a new worktree the checkout's ignored files that `.worktreeinclude` names (gitignore syntax,
 * as Claude Code's and the Codex app's worktrees read it): an `.env`, local config, never a tracked file
 * (the checkout of the branch brings those). Symlinks are copied as links and the executable bit is kept.
 * Returns the paths copied, relative to the work tree.
 */
export async function copyIncluded(checkout: string, worktree: string): Promise<string[]> {
  let rules: string;
  try {
    rules = await fs.readFile(path.join(checkout, '.worktreeinclude'), 'utf8');
  } catch {
    return [];
  }
  const included = ignore().add(rules);
  const { stdout } = await runGit(['ls-files', '--others', '--ignored', '--exclude-standard', '-z'], { cwd: checkout });
  const copied: string[] = [];
  for (const file of stdout.split('\0')) {
    if (!file || !included.ignores(file)) continue;
    await copyOne(path.join(checkout, file), path.join(worktree, file));
    copied.push(file);
  }
  return copied;
}

async function copyOne(from: string, to: string): Promise<void> {
  const stat = await fs.lstat(from).catch(() => null);
  if (!stat) return; // removed since git listed it
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.rm(to, { force: true });
  if (stat.isSymbolicLink()) await fs.symlink(await fs.readlink(from), to);
  else if (stat.isFile()) {
    await fs.copyFile(from, to);
    await fs.chmod(to, stat.mode & 0o7777);
  }
}
