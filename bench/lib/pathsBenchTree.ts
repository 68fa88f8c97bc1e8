import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** Relative paths of a real 135k-entry tree (six public JS/C++ repos); optional input. */
export const ANCHOR_TREE_FILE = join(__dirname, '../../../shared/path-anchors/tree-paths.tsv.gz');

export interface BenchTreeShape {
  source: 'anchors' | 'generated';
  files: number;
  directories: number;
  excluded: number;
  /** `.gitignore` files with rules written (issue 29: their marks are computed on every walk). */
  ignoreFiles: number;
  /** Names present in the tree, used to pick realistic queries. */
  names: string[];
}

interface TreeEntry {
  kind: 'f' | 'd';
  path: string;
}

/**
 * Creates the benchmark tree under `root`: the anchor tree when its file exists, otherwise a
 * generated tree of about the same size (≈105k files, ≈29k directories). Both get excluded
 * `.git` and `node_modules` content so the walk has something to skip.
 */
export function buildPathsBenchTree(root: string): BenchTreeShape {
  const fromAnchors = existsSync(ANCHOR_TREE_FILE);
  const entries = fromAnchors ? readAnchorEntries() : generateEntries();
  let files = 0;
  let directories = 0;
  const names: string[] = [];
  for (const entry of entries) {
    const absolute = join(root, entry.path);
    if (entry.kind === 'd') {
      mkdirSync(absolute, { recursive: true });
      directories += 1;
    } else {
      writeFileSync(absolute, '');
      files += 1;
    }
    names.push(entry.path.slice(entry.path.lastIndexOf('/') + 1));
  }
  const excluded = addExcludedContent(root);
  const ignoreFiles = addIgnoreRules(root, entries);
  return { source: fromAnchors ? 'anchors' : 'generated', files, directories, excluded, ignoreFiles, names };
}

function readAnchorEntries(): TreeEntry[] {
  const text = gunzipSync(readFileSync(ANCHOR_TREE_FILE)).toString('utf8');
  const entries: TreeEntry[] = [];
  for (const line of text.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const kind = line.slice(0, tab) === 'd' ? 'd' : 'f';
    entries.push({ kind, path: line.slice(tab + 1) });
  }
  // Parents first, so every file's directory exists when it is written.
  return entries.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'd' ? -1 : 1));
}

const STEMS = [
  'index',
  'router',
  'user',
  'config',
  'utils',
  'helpers',
  'parser',
  'lexer',
  'server',
  'client',
  'render',
  'format',
  'scope',
  'token',
  'module',
  'graph',
  'cache',
  'stream',
  'buffer',
  'event',
  'path',
  'list',
];
const EXTENSIONS = ['.ts', '.js', '.json', '.md', '.cc', '.h', '.snap', '.test.ts', '.d.ts', '.yml'];
const DIRECTORY_WORDS = [
  'src',
  'lib',
  'test',
  'fixtures',
  'crates',
  'packages',
  'internal',
  'specs',
  'core',
  'compiler',
  'runtime',
  'api',
  'docs',
  'examples',
  'tools',
  'third_party',
];

/** Deterministic tree: 29k directories of fan-out ~4, with ~3.6 files each. */
function generateEntries(): TreeEntry[] {
  let seed = 42;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const entries: TreeEntry[] = [];
  const directories = [''];
  for (let d = 0; d < 29_000; d += 1) {
    const parent = directories[random(directories.length)];
    const word = DIRECTORY_WORDS[random(DIRECTORY_WORDS.length)];
    const path = `${parent ? `${parent}/` : ''}${word}-${d}`;
    directories.push(path);
    entries.push({ kind: 'd', path });
  }
  for (let f = 0; f < 105_000; f += 1) {
    const parent = directories[random(directories.length)];
    const stem = `${STEMS[random(STEMS.length)]}${random(3) === 0 ? `-${STEMS[random(STEMS.length)]}` : ''}`;
    const name = `${stem}${f}${EXTENSIONS[random(EXTENSIONS.length)]}`;
    entries.push({ kind: 'f', path: `${parent ? `${parent}/` : ''}${name}` });
  }
  return entries;
}

/** A monorepo's root `.gitignore`: build output, logs, caches, snapshots (`*.snap`: ~1 file in 10 here). */
const ROOT_RULES = [
  '# dependencies and build output',
  'node_modules',
  'dist/',
  'build/',
  'out/',
  'coverage/',
  '*.log',
  '*.map',
  '*.tsbuildinfo',
  '.DS_Store',
  '.env',
  '.env.*',
  '!.env.example',
  '*.snap',
  '/third_party-*/',
  'tmp/',
  '.cache/',
  '*.swp',
  '__pycache__/',
  'target/',
].join('\n');
/** A package's own `.gitignore`, with a path pattern and a negation. */
const PACKAGE_RULES = ['*.d.ts', '!index*.d.ts', '/lib-*/', 'generated/'].join('\n');
const PACKAGE_IGNORE_FILES = 20;

/**
 * Writes the rules into the root `.gitignore` and into up to 20 top-level folders' own (the anchor tree's
 * `.gitignore` files are empty): ranking ignored paths last costs marking every entry on a first walk.
 */
function addIgnoreRules(root: string, entries: readonly TreeEntry[]): number {
  writeFileSync(join(root, '.gitignore'), `${ROOT_RULES}\n`);
  const packages = entries.filter((entry) => entry.kind === 'd' && !entry.path.includes('/')).slice(0, PACKAGE_IGNORE_FILES);
  for (const folder of packages) writeFileSync(join(root, folder.path, '.gitignore'), `${PACKAGE_RULES}\n`);
  return 1 + packages.length;
}

/** `.git` objects and a few `node_modules` folders: present on disk, never listed (rules 2–3). */
function addExcludedContent(root: string): number {
  let count = 0;
  for (let bucket = 0; bucket < 64; bucket += 1) {
    const dir = join(root, '.git', 'objects', bucket.toString(16).padStart(2, '0'));
    mkdirSync(dir, { recursive: true });
    count += 1;
    for (let object = 0; object < 40; object += 1) {
      writeFileSync(join(dir, `${object.toString(16).padStart(38, '0')}`), '');
      count += 1;
    }
  }
  for (const parent of ['', 'packages-node', 'tools-node']) {
    for (let pkg = 0; pkg < 200; pkg += 1) {
      const dir = join(root, parent, 'node_modules', `package-${pkg}`, 'lib');
      mkdirSync(dir, { recursive: true });
      count += 2;
      for (let file = 0; file < 10; file += 1) {
        writeFileSync(join(dir, `file-${file}.js`), '');
        count += 1;
      }
    }
  }
  return count;
}
