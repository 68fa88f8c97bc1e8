import { expect } from 'chai';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DIFF_LIMITS } from '../../../src/daemon/git/diff/diffLimits';
import { gitDiff } from '../../../src/daemon/git/diff/gitDiff';
import type { DiffFile } from '../../../src/protocol/hostGitCommands';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { git, gitDaemon, makeProject } from './gitFixture';

const THREAD = 'thr_diffparts0000001';

/** A change big enough that git writes its patch in many chunks: `count` files of 40 changed lines each. */
function changeMany(checkout: string, count: number): void {
  mkdirSync(path.join(checkout, 'many'), { recursive: true });
  for (let i = 0; i < count; i++) {
    const name = path.join(checkout, 'many', `f${String(i).padStart(4, '0')}.txt`);
    writeFileSync(name, Array.from({ length: 40 }, (_, line) => `old ${i} ${line}`).join('\n') + '\n');
  }
  git(checkout, 'add', '-A');
  git(checkout, 'commit', '-q', '-m', 'many files');
  for (let i = 0; i < count; i++) {
    const name = path.join(checkout, 'many', `f${String(i).padStart(4, '0')}.txt`);
    writeFileSync(name, Array.from({ length: 40 }, (_, line) => `new ${i} ${line}`).join('\n') + '\n');
  }
}

describe('git.diff in parts: files go out while git writes them, and together they are the whole answer', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();

  async function project() {
    const root = realpathSync(await tempDir('ats-git-diff-parts-'));
    const { checkout } = makeProject(root);
    return { root, checkout, daemon: gitDaemon(path.join(root, 'data')) };
  }
  /** The answer asked in parts: the parts' files, then the result's own. */
  async function inParts(daemon: ReturnType<typeof gitDaemon>, params: object) {
    const parts: DiffFile[][] = [];
    const result = await daemon.call('git.diff', { threadId: THREAD, ...params }, (part) => parts.push(part.files));
    return { parts, result, files: [...parts.flat(), ...result.files] };
  }

  it('a big uncommitted change: several parts before the answer, the same files in the same order, the same base', async () => {
    const { checkout, daemon } = await project();
    changeMany(checkout, 400);
    const whole = await daemon.call('git.diff', { threadId: THREAD, path: checkout, scope: 'uncommitted' });
    const { parts, result, files } = await inParts(daemon, { path: checkout, scope: 'uncommitted' });
    expect(whole.files).to.have.length(400);
    expect(parts.length, 'parts sent before the answer').to.be.greaterThan(1);
    expect(result.files.length, 'the answer holds only the files no part carried').to.be.lessThan(400);
    expect(files).to.deep.equal(whole.files);
    expect({ ...result, files: [] }).to.deep.equal({ ...whole, files: [] });
  });

  it('new files beside tracked edits, with and without a deletion: in parts too, merged in path order as one diff of everything', async () => {
    const { checkout, daemon } = await project();
    changeMany(checkout, 200);
    writeFileSync(path.join(checkout, 'many', 'f0100 new.txt'), 'new\n');
    const whole = () => daemon.call('git.diff', { threadId: THREAD, path: checkout, scope: 'uncommitted' });
    const merged = await inParts(daemon, { path: checkout, scope: 'uncommitted' });
    expect(merged.parts.length).to.be.greaterThan(0);
    expect(merged.files).to.deep.equal((await whole()).files);
    const paths = merged.files.map((file) => file.path);
    expect(paths.indexOf('many/f0100 new.txt')).to.equal(paths.indexOf('many/f0100.txt') - 1); // ' ' sorts before '.'

    rmSync(path.join(checkout, 'run.sh'));
    const combined = await inParts(daemon, { path: checkout, scope: 'uncommitted' });
    expect(combined.parts.length).to.be.greaterThan(0);
    expect(combined.files).to.deep.equal((await whole()).files);
    expect(combined.files.map((file) => file.path)).to.include.members(['many/f0100 new.txt', 'run.sh']);
  });

  it('the caps cut a diff in parts exactly as a whole one: the same files summarized, the same ones left out', async () => {
    const { root, checkout } = await project();
    changeMany(checkout, 300);
    const limits = { ...DIFF_LIMITS, maxFiles: 250, maxLinesPerFile: 70, maxLines: 20_000 };
    const deps = { tempDir: path.join(root, 'tmp'), baseCommitOf: async () => null, limits };
    const params = { threadId: THREAD, path: checkout, scope: 'uncommitted' as const };
    const whole = await gitDiff(params, deps);
    const parts: DiffFile[][] = [];
    const result = await gitDiff(params, deps, (files) => parts.push(files));
    expect(whole.truncated).to.equal(true);
    expect(whole.files).to.have.length(250);
    expect(whole.files.filter((file) => file.truncated).length, 'files past the whole answer’s line cap').to.be.greaterThan(0);
    expect(parts.length).to.be.greaterThan(1);
    expect([...parts.flat(), ...result.files]).to.deep.equal(whole.files);
    expect(result.truncated).to.equal(true);
  });

  it('a screenful (maxFiles) answers whole even when parts are asked for', async () => {
    const { checkout, daemon } = await project();
    changeMany(checkout, 100);
    const { parts, result } = await inParts(daemon, { path: checkout, scope: 'uncommitted', maxFiles: 30 });
    expect(parts).to.deep.equal([]);
    expect(result.files).to.have.length(30);
  });
});
