import type { DiffFile } from '../../../protocol/hostGitCommands';
import { runGit, type GitOptions } from '../runGit';
import { withTempIndex } from '../tempIndex';
import { diffBesideUntracked, untrackedFiles } from './diffBesideUntracked';
import { diffFiles } from './diffFiles';
import type { DiffLimits } from './diffLimits';
import { DiffOutputReader, type ParsedDiff } from './diffOutputReader';
import { FileParts, type DiffAnswer } from './fileParts';
import type { RawEntry } from './parseRawEntries';

export type { DiffAnswer } from './fileParts';

/** Where the files of a diff answered in parts go, in order; the answer then holds the files not sent. */
export type SendFiles = (files: DiffFile[]) => void;

/** Untracked files diffed on their own, when no deleted file could be the other half of a rename (argv stays small). */
const SEPARATE_UNTRACKED_MAX = 500;

const DIFF_ARGS = ['--raw', '-z', '-p', '-M', '--no-color', '--no-ext-diff', '--no-textconv', '--submodule=short'];

/** `git diff` of `revs` (a base, or two trees) limited to `paths`, in the one format the reader parses. */
function diffArgs(limits: DiffLimits, revs: readonly string[], paths: readonly string[]): string[] {
  const config = ['-c', `core.bigFileThreshold=${limits.bigFileBytes}`, '-c', 'diff.noprefix=false', '-c', 'diff.relative=false'];
  return [...config, 'diff', ...DIFF_ARGS, ...revs, '--', ...literal(paths)];
}

/**
 * `base` → the files on disk, untracked ones as added. The tracked diff and the list of untracked files run
 * side by side (git's two walks of the tree are most of the time); untracked files are then marked
 * intent-to-add in a copy of the index and diffed too: on their own when nothing tracked was deleted (so no
 * rename can pair them with a tracked file), else in one diff with everything, so renames stay renames.
 *
 * In parts (`send`), the tracked diff goes out as git writes it when no file is untracked; when some are, it
 * is ended and the one diff of everything goes out instead, its files in their final order as git writes them
 * (a page's first screen then waits for the listing, not for the whole change).
 */
export async function diffWorktree(
  topLevel: string,
  base: string,
  tempDir: string,
  limits: DiffLimits,
  options: { only?: ChosenPaths; send?: SendFiles } = {},
): Promise<DiffAnswer> {
  const { only, send } = options;
  const paths = only?.paths ?? [];
  const parts = send && new FileParts(limits, send);
  const reading = diffReading(parts);
  const args = diffArgs(limits, [base], paths);
  // Chosen paths come from a listing that said which are untracked: no second walk of the tree.
  const run = only
    ? { diff: runGit(args, { cwd: topLevel, onStdout: reading.onStdout }), untracked: Promise.resolve([...only.untracked]) }
    : diffBesideUntracked(args, { cwd: topLevel, onStdout: reading.onStdout });
  const [tracked, untracked] = await Promise.all([
    run.diff.then(
      () => reading.end(),
      (error: unknown) => {
        if (error instanceof DiffAbandoned) return undefined;
        throw error;
      },
    ),
    run.untracked.then((files) => {
      if (files.length === 0) parts?.release();
      else parts?.abandon();
      return files;
    }),
  ]);
  if (untracked.length === 0) return parts ? parts.rest() : answer([tracked!], limits);
  const separate =
    tracked !== undefined &&
    !send &&
    untracked.length <= SEPARATE_UNTRACKED_MAX &&
    !tracked.entries.some((entry) => entry.status === 'deleted');
  return withTempIndex(topLevel, tempDir, async (env) => {
    const input = untracked.join('\0');
    await runGit(['add', '--intent-to-add', '--pathspec-from-file=-', '--pathspec-file-nul'], { cwd: topLevel, env, input });
    if (separate) {
      const added = await readDiff(diffArgs(limits, [base], untracked), { cwd: topLevel, env });
      return answer([tracked, added], limits);
    }
    // One diff of everything, in its final order: it can go out in parts.
    const whole = send && released(new FileParts(limits, send));
    const all = await readDiff(diffArgs(limits, [base], paths), { cwd: topLevel, env }, whole);
    return whole ? whole.rest() : answer([all], limits);
  });
}

/** Some of a diff's files (`maxFiles`), as a listing named them: their paths and which of them are untracked. */
export interface ChosenPaths {
  paths: readonly string[];
  untracked: readonly string[];
}

/** A listed file of the diff (`changedPaths`): a tracked change as git's raw list says it, or an untracked file. */
export type ListedEntry = RawEntry & { untracked?: true };

/** `from` → `to`, two recorded trees. */
export async function diffTrees(
  topLevel: string,
  from: string,
  to: string,
  limits: DiffLimits,
  options: { only?: ChosenPaths; send?: SendFiles } = {},
): Promise<DiffAnswer> {
  const args = diffArgs(limits, [from, to], options.only?.paths ?? []);
  const parts = options.send && released(new FileParts(limits, options.send));
  const parsed = await readDiff(args, { cwd: topLevel }, parts);
  return parts ? parts.rest() : answer([parsed], limits);
}

/** What `diffWorktree` would list, without a patch: the changed files (tracked or not) in path order. */
export async function changedPaths(topLevel: string, base: string, to?: string): Promise<ListedEntry[]> {
  const [tracked, untracked] = await Promise.all([
    readDiff(['diff', '--raw', '-z', '-M', '--no-ext-diff', '--submodule=short', base, ...(to ? [to] : []), '--'], { cwd: topLevel }),
    to ? [] : untrackedFiles(topLevel),
  ]);
  const entries = [...tracked.entries, ...untracked.map((path): ListedEntry => ({ status: 'added', path, untracked: true }))];
  return entries.sort(byPath);
}

/** Paths as git pathspecs that match exactly that path (no glob, no magic, whatever the name holds). */
const literal = (paths: readonly string[]) => paths.map((file) => `:(literal)${file}`);

/** Git's own order of paths (byte order), which a listing of tracked and untracked files is put back in. */
const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Thrown to end a git whose parts were abandoned: its output is of no more use. */
class DiffAbandoned extends Error {}

/**
 * Reads one `git diff --raw -z` (with or without `-p`) as git writes it, each file to `parts`; its
 * `onStdout` throws DiffAbandoned, which ends git, once `parts` are abandoned.
 */
function diffReading(parts?: FileParts): { onStdout(chunk: Buffer): void; end(): ParsedDiff } {
  const reader = new DiffOutputReader(parts && ((entry, section) => parts.add(entry, section)));
  return {
    onStdout(chunk) {
      if (parts?.abandoned) throw new DiffAbandoned('the diff is answered another way');
      reader.push(chunk);
      parts?.flush();
    },
    end: () => reader.end(),
  };
}

/** Runs one `git diff --raw -z` (with or without `-p`) and reads it as git writes it (diffReading). */
async function readDiff(args: string[], options: GitOptions, parts?: FileParts): Promise<ParsedDiff> {
  const reading = diffReading(parts);
  await runGit(args, { ...options, onStdout: reading.onStdout });
  return reading.end();
}

const released = (parts: FileParts) => {
  parts.release();
  return parts;
};

/** One answer from one or two diffs, files in path order as git lists them. */
function answer(parts: ParsedDiff[], limits: DiffLimits): DiffAnswer {
  const pairs = parts.flatMap((part) => part.entries.map((entry, index) => ({ entry, section: part.sections[index] })));
  if (parts.length > 1) pairs.sort((a, b) => byPath(a.entry, b.entry));
  return diffFiles(
    pairs.map((pair) => pair.entry),
    pairs.map((pair) => pair.section ?? { binary: false, additions: 0, deletions: 0, hunks: [] }),
    limits,
  );
}
