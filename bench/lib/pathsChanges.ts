import { mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Changes the keystroke benchmark makes to its tree, one after another, checking after each that the
 * cached lister answers exactly what a fresh walk answers (issue 3: create, delete, rename, file↔dir,
 * symlink swap). Every name holds `configts`, so the benchmark's query finds what changed.
 */
export function treeChanges(root: string): Array<[what: string, change: () => void]> {
  const at = (path: string) => join(root, path);
  return [
    ['create a file', () => writeFileSync(at('configts-bench-file.ts'), '')],
    [
      'create a directory with a file',
      () => {
        mkdirSync(at('configts-bench-dir'));
        writeFileSync(at('configts-bench-dir/configts-inner.ts'), '');
      },
    ],
    ['rename a file into another directory', () => renameSync(at('configts-bench-file.ts'), at('configts-bench-dir/configts-moved.ts'))],
    ['rename a directory', () => renameSync(at('configts-bench-dir'), at('configts-bench-renamed'))],
    ['delete a file', () => unlinkSync(at('configts-bench-renamed/configts-inner.ts'))],
    [
      'replace a directory by a file',
      () => {
        rmSync(at('configts-bench-renamed'), { recursive: true });
        writeFileSync(at('configts-bench-renamed'), '');
      },
    ],
    [
      'replace a file by a symlink',
      () => {
        unlinkSync(at('configts-bench-renamed'));
        symlinkSync('.', at('configts-bench-renamed'));
      },
    ],
    ['delete the symlink', () => unlinkSync(at('configts-bench-renamed'))],
  ];
}
