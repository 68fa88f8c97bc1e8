import { expect } from 'chai';
import fc from 'fast-check';
import { mkdirSync, readdirSync, readlinkSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPathLister } from '../../src/daemon/pathLister';
import { ageDirectories, createTempTree, removeTempTree } from '../helpers/temp/tree';

type Mutation =
  | { op: 'createFile' | 'mkdir'; dir: number; name: string }
  | { op: 'remove' | 'toSymlink' | 'swapKind' | 'replaceWithOld'; target: number }
  | { op: 'rename'; target: number; dir: number; name: string }
  | { op: 'symlinkToFile' | 'symlinkToDir' | 'retargetSymlink'; link: number };

const nameArb = fc.constantFrom('a', 'b', '.x', 'node_modules', '.git', 'c d', 'e\u0301');
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constantFrom('createFile' as const, 'mkdir' as const), dir: fc.nat(), name: nameArb }),
  fc.record({
    op: fc.constantFrom('remove' as const, 'toSymlink' as const, 'swapKind' as const, 'replaceWithOld' as const),
    target: fc.nat(),
  }),
  fc.record({ op: fc.constant('rename' as const), target: fc.nat(), dir: fc.nat(), name: nameArb }),
  fc.record({
    op: fc.constantFrom('symlinkToFile' as const, 'symlinkToDir' as const, 'retargetSymlink' as const),
    link: fc.nat(),
  }),
);

/** Symlinks under `root` (relative paths), not followed: the targets of the symlink mutations. */
function symlinksUnder(root: string, relative = ''): string[] {
  const found: string[] = [];
  for (const dirent of readdirSync(join(root, relative), { withFileTypes: true })) {
    const path = relative === '' ? dirent.name : `${relative}/${dirent.name}`;
    if (dirent.isSymbolicLink()) found.push(path);
    else if (dirent.isDirectory()) found.push(...symlinksUnder(root, path));
  }
  return found;
}

/** Applies one change to the real tree; targets are picked among what a fresh walk lists right now. */
function apply(root: string, mutation: Mutation, files: string[], directories: string[]): void {
  const dirs = ['', ...directories];
  const all = [...files, ...directories];
  const at = (relative: string) => join(root, relative);
  try {
    switch (mutation.op) {
      case 'createFile':
        return writeFileSync(at(join(dirs[mutation.dir % dirs.length], mutation.name)), 'x');
      case 'mkdir':
        return mkdirSync(at(join(dirs[mutation.dir % dirs.length], mutation.name)));
      case 'symlinkToFile':
      case 'symlinkToDir':
      case 'retargetSymlink': {
        // A real file or directory back where a symlink was, or the link pointed elsewhere.
        const links = symlinksUnder(root);
        if (links.length === 0) return;
        const link = links[mutation.link % links.length];
        const target = readlinkSync(at(link));
        unlinkSync(at(link));
        if (mutation.op === 'symlinkToFile') writeFileSync(at(link), '');
        else if (mutation.op === 'symlinkToDir') mkdirSync(at(join(link, 'inside')), { recursive: true });
        else symlinkSync(target === '.' ? '..' : '.', at(link));
        return;
      }
      case 'rename': {
        if (all.length === 0) return;
        const source = all[mutation.target % all.length];
        const into = dirs[mutation.dir % dirs.length];
        if (into === source || into.startsWith(`${source}/`)) return;
        return renameSync(at(source), at(join(into, mutation.name)));
      }
      default: {
        if (all.length === 0) return;
        const target = all[mutation.target % all.length];
        const wasDirectory = directories.includes(target);
        rmSync(at(target), { recursive: true, force: true });
        if (mutation.op === 'toSymlink') symlinkSync('.', at(target));
        if (mutation.op === 'swapKind') wasDirectory ? writeFileSync(at(target), '') : mkdirSync(at(target));
        if (mutation.op === 'replaceWithOld') moveInOldDirectory(root, target);
      }
    }
  } catch {
    // EEXIST, ENOTEMPTY, ENOTDIR…: the change did not happen, which is also a state to check.
  }
}

/**
 * Puts a directory with old timestamps where `target` was (like `mv` of an old folder, or tar restoring
 * mtimes): its own mtime is settled, so only its inode and ctime tell the cache it is a different one.
 */
function moveInOldDirectory(root: string, target: string): void {
  const staging = `${root}-staging`;
  try {
    mkdirSync(join(staging, 'old', 'inner'), { recursive: true });
    writeFileSync(join(staging, 'old', 'inner', 'moved.txt'), '');
    ageDirectories(join(staging, 'old'));
    renameSync(join(staging, 'old'), join(root, target));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Short, so a run need not wait 2 s for its fresh directories to settle; longer than the clock's tick. */
const RACY_WINDOW_MS = 50;

describe('cached listings (property): identical to a fresh walk after any sequence of changes', () => {
  it('holds for random creates, deletes, renames, file↔dir and symlink swaps, both ways', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutationArb, { minLength: 1, maxLength: 12 }), async (mutations) => {
        const root = createTempTree({
          src: { 'index.ts': '', lib: { 'util.ts': '' }, 'lib-link': { symlink: 'lib' } },
          docs: { 'a.md': '', 'top-link': { symlink: '../top.txt' } },
          'top.txt': '',
        });
        ageDirectories(root);
        // Past the racy window (a ctime cannot be aged), so only real changes make the cache re-read.
        await new Promise((resolve) => setTimeout(resolve, RACY_WINDOW_MS + 20));
        try {
          const cached = createPathLister({ racyWindowMs: RACY_WINDOW_MS, watcher: null });
          const fresh = createPathLister({ cache: false });
          for (const mutation of mutations) {
            const now = await fresh.listPaths({ path: root, limit: 10_000 });
            expect(await cached.listPaths({ path: root, limit: 10_000 })).to.deep.equal(now);
            const files = now.paths.filter((entry) => entry.kind === 'file').map((entry) => entry.path);
            const directories = now.paths.filter((entry) => entry.kind === 'directory').map((entry) => entry.path);
            apply(root, mutation, files, directories);
          }
          for (const query of ['a', 'd/a', 's/']) {
            const request = { path: root, limit: 10_000, query };
            expect(await cached.listPaths(request), query).to.deep.equal(await fresh.listPaths(request));
          }
          const filesOnly = { path: root, limit: 10_000, query: 'a', includeDirectories: false };
          expect(await cached.listPaths(filesOnly)).to.deep.equal(await fresh.listPaths(filesOnly));
          expect(await cached.listPaths({ path: root, limit: 10_000 })).to.deep.equal(await fresh.listPaths({ path: root, limit: 10_000 }));
        } finally {
          removeTempTree(root);
        }
      }),
      { numRuns: 25 },
    );
  });
});
