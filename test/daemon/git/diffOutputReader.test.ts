import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DiffOutputReader } from '../../../src/daemon/git/diff/diffOutputReader';
import { runGit } from '../../../src/daemon/git/runGit';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { git, makeProject } from './gitFixture';

/**
 * The diff is read while git writes it, in whatever pieces the pipe delivers: a piece may end inside a file
 * name, inside a line or inside a character of several bytes. Whatever the cut, the reading is the same.
 */
describe('git.diff read as git writes it: any cut of the output reads the same', function () {
  this.timeout(30_000);
  const tempDir = suiteTempDirs();

  /** The raw + patch output of a change with renames, a deletion, a binary file and non-ASCII names and text. */
  async function diffOutput(): Promise<Buffer> {
    const root = realpathSync(await tempDir('ats-diff-reader-'));
    const { checkout } = makeProject(root);
    writeFileSync(path.join(checkout, 'src', 'lines.txt'), `${Array.from({ length: 30 }, (_, i) => `zeile ${i} – größer ✓`).join('\n')}\n`);
    renameSync(path.join(checkout, 'README.md'), path.join(checkout, 'LÉAME.md'));
    rmSync(path.join(checkout, 'run.sh'));
    writeFileSync(path.join(checkout, 'image.bin'), Buffer.from([0, 159, 146, 150, 0, 1]));
    writeFileSync(path.join(checkout, 'no newline ✓.txt'), 'last line without newline');
    git(checkout, 'add', '-A');
    return execFileSync('git', ['-c', 'core.quotePath=false', 'diff', '--raw', '-z', '-p', '-M', '--cached', 'HEAD'], { cwd: checkout });
  }

  function readInPieces(output: Buffer, cuts: number[]) {
    const reader = new DiffOutputReader();
    let at = 0;
    for (const cut of [...cuts, output.length]) {
      reader.push(output.subarray(at, cut));
      at = cut;
    }
    return reader.end();
  }

  it('reads the same in one piece, byte by byte and cut at random places', async () => {
    const output = await diffOutput();
    const whole = readInPieces(output, []);
    expect(whole.entries.map((entry) => `${entry.status} ${entry.oldPath ?? ''}→${entry.path}`)).to.deep.equal([
      'renamed README.md→LÉAME.md',
      'added →image.bin',
      'added →no newline ✓.txt',
      'deleted →run.sh',
      'modified →src/lines.txt',
    ]);
    expect(whole.sections.map((section) => [section.binary, section.additions, section.deletions])).to.deep.equal([
      [false, 0, 0],
      [true, 0, 0],
      [false, 1, 0],
      [false, 0, 2],
      [false, 30, 30],
    ]);
    expect(whole.sections[2]!.hunks[0]!.lines).to.deep.equal([{ kind: 'add', text: 'last line without newline' }]);
    expect(whole.sections[4]!.hunks[0]!.lines).to.deep.include({ kind: 'add', text: 'zeile 0 – größer ✓' });

    expect(
      readInPieces(
        output,
        Array.from({ length: output.length - 1 }, (_, i) => i + 1),
      ),
      'byte by byte',
    ).to.deep.equal(whole);
    for (let round = 0; round < 50; round++) {
      const cuts = Array.from({ length: 1 + Math.floor(Math.random() * 20) }, () => Math.floor(Math.random() * output.length));
      expect(
        readInPieces(
          output,
          [...new Set(cuts)].sort((a, b) => a - b),
        ),
        `cut at ${cuts.join(',')}`,
      ).to.deep.equal(whole);
    }
  });

  it('a reader that throws ends git and is the answer, never an uncaught exception', async () => {
    const output = runGit(['log', '--all', '-p'], {
      cwd: process.cwd(),
      onStdout: () => {
        throw new Error('the reader broke');
      },
    });
    const failure = await output.then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).to.equal('the reader broke');
  });
});
