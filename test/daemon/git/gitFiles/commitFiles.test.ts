import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readHeadFiles, type HeadFiles } from '../../../../src/daemon/git/gitFiles/headFiles';
import { commitFromIndexes, commitJustMade, committedFiles, parentSide } from '../../../../src/daemon/git/ship/commitFiles';
import { git } from '../../../helpers/git/gitRepo';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';

const IDENTITY = { GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@e' };

/** Git in `repo` with `index` as its index (GIT_INDEX_FILE), as commitChanges runs it in its copy. */
const inIndex = (repo: string, index: string, ...args: string[]) =>
  execFileSync('git', args, { cwd: repo, env: { ...process.env, ...IDENTITY, GIT_INDEX_FILE: index } });

const write = (repo: string, name: string, content: string) => {
  mkdirSync(path.dirname(path.join(repo, name)), { recursive: true });
  writeFileSync(path.join(repo, name), content);
};

/** Changes a commit of all of them must list as `git diff-tree -r --name-only` does, in its order. */
const CHANGES: [string, (repo: string) => void][] = [
  [
    'modified, new and deleted files in several folders',
    (repo) => {
      write(repo, 'src/app.ts', 'export const app = 2;\n');
      write(repo, 'docs/new guide.md', 'new\n');
      rmSync(path.join(repo, 'README.md'));
    },
  ],
  [
    'a file that becomes a folder, a folder that becomes a file, names git sorts by their bytes',
    (repo) => {
      rmSync(path.join(repo, 'a'));
      write(repo, 'a/inside.txt', 'now a folder\n');
      rmSync(path.join(repo, 'lib'), { recursive: true });
      write(repo, 'lib', 'now a file\n');
      for (const name of ['a-b', 'a.c', 'a0', 'é-accent.txt', 'Z upper']) write(repo, name, `${name}\n`);
    },
  ],
  [
    'a mode change and a new symbolic link',
    (repo) => {
      chmodSync(path.join(repo, 'src/app.ts'), 0o755);
      symlinkSync('src/app.ts', path.join(repo, 'link'));
    },
  ],
  [
    'a skip-worktree entry kept, in a version 3 index',
    (repo) => {
      git(repo, 'update-index', '--skip-worktree', 'lib/util.ts');
      git(repo, 'write-tree'); // the cache tree whole again, as any commit or status leaves it
      write(repo, 'src/app.ts', 'export const app = 3;\n');
    },
  ],
  [
    'the user’s index in version 4 (path prefixes compressed)',
    (repo) => {
      git(repo, 'update-index', '--index-version', '4');
      write(repo, 'lib/more/deeper/file.ts', 'deep\n');
      write(repo, 'lib/util.ts', 'changed\n');
    },
  ],
];

describe('commitFromIndexes and parentSide: the commit’s files read from the two indexes, exactly what diff-tree says (bench:ship, issue 39)', () => {
  const tempDir = suiteTempDirs();

  async function repo(objectFormat = 'sha1') {
    const repo = path.join(realpathSync(await tempDir('ats-commit-files-')), 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q', `--object-format=${objectFormat}`, '-b', 'main');
    const files = { 'README.md': '# p\n', 'src/app.ts': 'export const app = 1;\n', a: 'a file\n', 'lib/util.ts': 'u\n' };
    for (const [name, content] of Object.entries(files)) write(repo, name, content);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'first');
    return repo;
  }

  /** What commitChanges does around its `git commit`: the user's index copied, staged and committed in the copy. */
  function commitInCopy(repo: string, head: HeadFiles) {
    const before = readFileSync(head.indexFile);
    const staged = path.join(repo, '..', 'staged-index');
    copyFileSync(head.indexFile, staged);
    inIndex(repo, staged, 'add', '--all', '--', ':/');
    inIndex(repo, staged, 'commit', '-q', '-m', 'change');
    return { before, staged };
  }

  async function bothWays(repo: string, prepare?: (repo: string) => void) {
    prepare?.(repo);
    const head = readHeadFiles(repo)!;
    const { before, staged } = commitInCopy(repo, head);
    const parent = parentSide(head, before);
    return { fast: await commitFromIndexes(head, parent, staged), git: await committedFiles(repo, 'HEAD'), head, parent, staged };
  }

  for (const [what, change] of CHANGES) {
    it(`answers diff-tree’s list for ${what}`, async () => {
      const { fast, git: byGit } = await bothWays(await repo(), change);
      expect(fast).to.not.equal(null);
      expect(fast).to.deep.equal(byGit);
    });
  }

  it('answers for a SHA-256 repository', async () => {
    const { fast, git: byGit } = await bothWays(await repo('sha256'), CHANGES[0]![1]);
    expect(fast?.sha).to.have.length(64);
    expect(fast).to.deep.equal(byGit);
  });

  const FALLBACKS: [string, (repo: string) => void][] = [
    ['the parent commit is packed (gc)', (repo) => (git(repo, 'gc', '-q'), write(repo, 'x.txt', 'x\n'))],
    [
      'the user staged part of the work (the index is not the parent’s tree)',
      (repo) => (write(repo, 'x.txt', 'x\n'), git(repo, 'add', 'x.txt'), write(repo, 'y.txt', 'y\n')),
    ],
    ['an intent-to-add entry', (repo) => (write(repo, 'x.txt', 'x\n'), git(repo, 'add', '-N', 'x.txt'))],
    [
      'a replace ref (git would read another commit)',
      (repo) => {
        write(repo, 'x.txt', 'x\n');
        git(repo, 'replace', '-f', 'HEAD', git(repo, 'commit-tree', '-m', 'other', 'HEAD^{tree}'));
      },
    ],
    [
      'a replace ref kept in packed-refs only',
      (repo) => {
        write(repo, 'x.txt', 'x\n');
        git(repo, 'replace', '-f', 'HEAD', git(repo, 'commit-tree', '-m', 'other', 'HEAD^{tree}'));
        git(repo, 'pack-refs', '--all');
        rmSync(path.join(repo, '.git', 'refs', 'replace'), { recursive: true, force: true });
      },
    ],
  ];
  for (const [what, prepare] of FALLBACKS) {
    it(`leaves the answer to git when ${what}, which commitJustMade then gives`, async () => {
      const dir = await repo();
      const { fast, git: byGit, head, parent, staged } = await bothWays(dir, prepare);
      expect(fast).to.equal(null);
      expect(await commitJustMade(dir, head, parent, staged)).to.deep.equal(byGit);
    });
  }

  it('answers for a commit of named paths, staged from the branch’s tree (`read-tree`)', async () => {
    const dir = await repo();
    write(dir, 'src/app.ts', 'export const app = 9;\n');
    write(dir, 'other.txt', 'not committed\n');
    const head = readHeadFiles(dir)!;
    const staged = path.join(dir, '..', 'staged-index');
    inIndex(dir, staged, 'read-tree', head.commit);
    const before = readFileSync(staged);
    inIndex(dir, staged, 'add', '--all', '--', 'src/app.ts');
    inIndex(dir, staged, 'commit', '-q', '-m', 'app only');
    const fast = await commitFromIndexes(head, parentSide(head, before), staged);
    expect(fast).to.deep.equal({ sha: git(dir, 'rev-parse', 'HEAD'), files: ['src/app.ts'] });
  });
});
