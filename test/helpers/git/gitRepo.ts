import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** Runs real git in `cwd` (no user config read) and answers its stdout as it is; throws on a non-zero exit. */
export function gitOutput(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The same, trimmed: for a sha, a branch or a ref. */
export function git(cwd: string, ...args: string[]): string {
  return gitOutput(cwd, ...args).trim();
}

/** A repository in `folder` with `files` (relative path → content) committed on `main`; answers the commit. */
export function initRepo(folder: string, files: Record<string, string>): string {
  git(folder, 'init', '-q', '-b', 'main');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), content);
  }
  git(folder, 'add', '-A');
  git(folder, 'commit', '-q', '-m', 'first');
  return git(folder, 'rev-parse', 'HEAD');
}
