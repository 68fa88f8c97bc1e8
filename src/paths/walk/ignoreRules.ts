import ignore, { type Ignore } from 'ignore';
import type { WalkEntry } from './walkEntry';

/**
 * One `.gitignore` (or `.git/info/exclude`) as the `ignore` package compiles it, split for speed: git matches a
 * pattern with no `/` (but a trailing one) against the entry's name alone, at any depth, and most patterns are
 * such (`dist/`, `*.map`, `.DS_Store`). Those are tested with the name, and only when it could match (one
 * regular expression of hints, `^dist$|\.map$|…`): run on every path, the library took longer than the rest of a
 * first walk of the 135k-entry benchmark tree under a 20-pattern `.gitignore`; with the hints, marking is ~14%
 * of that walk (docs/paths.md, "Ignored paths rank last").
 */
export interface IgnoreFile {
  readonly text: string;
  /** The patterns matched against the name alone (null: none). */
  readonly byName: Ignore | null;
  /** Matches a name that holds a text a `byName` pattern needs (`.map` of `*.map`); null: a pattern needs none (`*`). */
  readonly nameHints: RegExp | null;
  /** The patterns matched against the path below the file's folder (null: none). */
  readonly byPath: Ignore | null;
  /** The same for the `byPath` patterns, from their last part (which matches the name). */
  readonly pathHints: RegExp | null;
  /** All patterns in their order: the last matching one decides when a `byPath` pattern is involved. */
  readonly all: Ignore;
}

/**
 * The ignore files that apply in one folder, nearest first: git lets a deeper `.gitignore` override a higher
 * one, and every `.gitignore` override `.git/info/exclude`, which is therefore the last link.
 */
export interface IgnoreChain {
  readonly file: IgnoreFile;
  /** The relative path of the folder the file speaks for ('' for the root). */
  readonly base: string;
  readonly parent: IgnoreChain | null;
}

/** Git on Linux compares names case-sensitively; macOS and Windows clones set `core.ignorecase`. */
const IGNORE_CASE = process.platform === 'darwin' || process.platform === 'win32';
// Relative paths only reach the library; `allowRelativePaths` makes it answer "not ignored" rather than throw.
const OPTIONS = { ignorecase: IGNORE_CASE, allowRelativePaths: true };

/** The chain of a folder inside an ignored one: everything in it is ignored (git cannot re-include below it). */
export const EVERYTHING_IGNORED: IgnoreChain = { file: compileIgnoreFile(''), base: '', parent: null };

export function compileIgnoreFile(text: string): IgnoreFile {
  const byName: string[] = [];
  const byPath: string[] = [];
  let nameHints: string[] | null = [];
  let pathHints: string[] | null = [];
  // The library drops a leading byte-order mark; the hints must not require one.
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const pattern = line.trimEnd();
    if (pattern === '' || pattern.startsWith('#')) continue;
    const body = (pattern.startsWith('!') ? pattern.slice(1) : pattern).replace(/\/$/, '');
    const lastPart = body.slice(body.lastIndexOf('/') + 1);
    // A pattern's last part matches the entry's name (a path pattern's parents are folders marked before it),
    // except `**`, which spans folders: such a pattern is always tested.
    const hint = lastPart.includes('**') ? null : hintOf(lastPart);
    if (body.includes('/')) {
      byPath.push(line);
      if (hint === null) pathHints = null;
      else pathHints?.push(hint);
    } else {
      byName.push(line);
      if (hint === null) nameHints = null;
      else nameHints?.push(hint);
    }
  }
  return {
    text,
    byName: byName.length > 0 ? ignore(OPTIONS).add(byName) : null,
    nameHints: anyOf(nameHints),
    byPath: byPath.length > 0 ? ignore(OPTIONS).add(byPath) : null,
    pathHints: anyOf(pathHints),
    all: ignore(OPTIONS).add(text),
  };
}

/**
 * A regular expression (source) that every name `glob` matches also matches, tighter than the glob's longest
 * plain part alone: `out` → `^out$`, `*.log` → `\.log$`, `lib-*` → `^lib-`. Null when a name may match
 * without holding any plain text (`*`); escapes, classes and edge spaces keep to the plain part.
 */
function hintOf(glob: string): string | null {
  const star = glob.indexOf('*');
  const plain = !glob.includes('\\') && !glob.includes('[') && !glob.includes('?') && glob.trim() === glob;
  if (plain && star < 0) return `^${escaped(glob)}$`;
  if (plain && glob.lastIndexOf('*') === star) {
    const before = escaped(glob.slice(0, star));
    const after = escaped(glob.slice(star + 1));
    if (before === '') return after === '' ? null : `${after}$`;
    return after === '' ? `^${before}` : `^${before}.*${after}$`;
  }
  if (glob.includes('\\') || glob.includes('[')) return null;
  let longest = '';
  for (const part of glob.split(/[*?]/)) if (part.trim().length > longest.length) longest = part.trim();
  return longest === '' ? null : escaped(longest);
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One regular expression for "matches one of these": one scan of a name instead of one per pattern. */
function anyOf(sources: readonly string[] | null): RegExp | null {
  if (sources === null) return null;
  return new RegExp(sources.length > 0 ? sources.join('|') : '(?!)', IGNORE_CASE ? 'i' : '');
}

/**
 * Library instances for one marking pass. They remember every path they were asked about, so a pass makes
 * fresh ones from the compiled rules (a copy of the rule list, no recompiling) and drops them after: kept, they
 * would hold a string per tested path of every cached tree.
 */
export class IgnorePass {
  private readonly instances = new Map<Ignore, Ignore>();

  /** Whether `chain` ignores `entry`; the entry's folder is known not to be ignored. */
  ignores(chain: IgnoreChain | null, entry: WalkEntry): boolean {
    if (chain === EVERYTHING_IGNORED) return true;
    for (let link = chain; link !== null; link = link.parent) {
      const verdict = this.verdictOf(link, entry);
      if (verdict !== NO_OPINION) return verdict === IGNORED;
    }
    return false;
  }

  private verdictOf(link: IgnoreChain, entry: WalkEntry): Verdict {
    const { file } = link;
    const directory = entry.kind === 'directory';
    if (file.byPath !== null && holdsHint(file.pathHints, entry.name)) {
      const below = link.base === '' ? entry.path : entry.path.slice(link.base.length + 1);
      const path = directory ? `${below}/` : below;
      // A path pattern has a say: the last of all patterns that match decides, as git reads them.
      if (verdictOf(this.fresh(file.byPath).test(path)) !== NO_OPINION) return verdictOf(this.fresh(file.all).test(path));
    }
    if (file.byName === null || !holdsHint(file.nameHints, entry.name)) return NO_OPINION;
    return verdictOf(this.fresh(file.byName).test(directory ? `${entry.name}/` : entry.name));
  }

  private fresh(compiled: Ignore): Ignore {
    let instance = this.instances.get(compiled);
    if (instance === undefined) this.instances.set(compiled, (instance = ignore(OPTIONS).add(compiled)));
    return instance;
  }
}

type Verdict = typeof IGNORED | typeof UNIGNORED | typeof NO_OPINION;
const IGNORED = 1;
const UNIGNORED = -1;
const NO_OPINION = 0;

function verdictOf(result: ignore.TestResult): Verdict {
  return result.ignored ? IGNORED : result.unignored ? UNIGNORED : NO_OPINION;
}

function holdsHint(hints: RegExp | null, name: string): boolean {
  return hints === null || hints.test(name);
}
