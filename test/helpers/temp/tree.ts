import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync, readdirSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A tree to create on disk: a string is a file's content, an object a directory, `{ symlink }` a link
 * (target as given), `{ fifo: true }` a named pipe.
 */
export type TreeSpec = { [name: string]: string | TreeSpec | SymlinkSpec | FifoSpec };
export interface SymlinkSpec {
  symlink: string;
}
export interface FifoSpec {
  fifo: true;
}

/** Creates `spec` in a fresh temp folder and returns its absolute path. */
export function createTempTree(spec: TreeSpec, prefix = 'paths-test-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  writeTree(root, spec);
  return root;
}

export function writeTree(directory: string, spec: TreeSpec): void {
  mkdirSync(directory, { recursive: true });
  for (const [name, node] of Object.entries(spec)) {
    const path = join(directory, name);
    if (typeof node === 'string') writeFileSync(path, node);
    else if (isSymlink(node)) symlinkSync(node.symlink, path);
    else if (isFifo(node)) execFileSync('mkfifo', [path]);
    else writeTree(path, node);
  }
}

export function removeTempTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/**
 * Dates every directory under `root` (and the root) one hour back, so the listing cache sees them as
 * settled (outside the racy window) and a later change is the only thing that moves a stamp.
 */
export function ageDirectories(root: string, secondsAgo = 3600): void {
  const then = new Date(Date.now() - secondsAgo * 1000);
  const stack = [root];
  while (stack.length > 0) {
    const directory = stack.pop()!;
    for (const dirent of readdirSync(directory, { withFileTypes: true })) {
      if (dirent.isDirectory()) stack.push(join(directory, dirent.name));
    }
    if (lstatSync(directory).isDirectory()) utimesSync(directory, then, then);
  }
}

function isSymlink(node: unknown): node is SymlinkSpec {
  return typeof node === 'object' && node !== null && 'symlink' in node;
}

function isFifo(node: unknown): node is FifoSpec {
  return typeof node === 'object' && node !== null && 'fifo' in node;
}
