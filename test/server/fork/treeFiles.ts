import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { filesOf } from '../../daemon/git/filesOf';

/** The files of a git tree as `filesOf` reads a folder (modes, bytes, links): `git archive` into a temp folder. */
export function treeFiles(repo: string, tree: string): Record<string, string> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'ats-tree-'));
  try {
    // Modes as a checkout writes them: git's, less this process's umask (what a worktree's files get).
    const umask = `0${process.umask().toString(8)}`;
    const tar = execFileSync('git', ['-c', `tar.umask=${umask}`, 'archive', '--format=tar', tree], { cwd: repo, maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', folder], { input: tar });
    return filesOf(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The tree recorded at the end of a thread's turn (`refs/ats/turns/<thread>/<startedAt>-<turnId>/end`). */
export function turnEndTree(repo: string, threadId: string, turnId: string): string {
  const refs = execFileSync('git', ['for-each-ref', '--format=%(objectname) %(refname)', `refs/ats/turns/${threadId}/`], {
    cwd: repo,
    encoding: 'utf8',
  });
  const line = refs.split('\n').find((candidate) => candidate.endsWith(`-${turnId}/end`));
  if (!line) throw new Error(`no end tree of turn ${turnId} of ${threadId}:\n${refs}`);
  return line.split(' ')[0]!;
}
