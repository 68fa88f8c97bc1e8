import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { crashRandom, runUntilKilled } from '../helpers/crash/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const CHILD = 'test/helpers/crash/childReplaceFile.ts';

/**
 * The token, the daemon's host identity and its outbox are replaced whole at start (replaceFile): a kill must
 * leave the old content or the new, never the empty or half-written file an in-place write left.
 */
describe('replaceFile under SIGKILL', function () {
  this.timeout(120_000);
  const tempDir = suiteTempDirs();

  it('always leaves a whole file, at least as new as the last acked replacement, round after round', async () => {
    const random = crashRandom();
    const dir = await tempDir('replace-file-crash-');
    const file = path.join(dir, 'state.json');
    let lastAcked = 0;
    for (let round = 0; round < 6; round += 1) {
      const delayMs = random.between(0, 800);
      const run = await runUntilKilled({ script: CHILD, args: [file], after: /^ready /, delayMs });
      const context = `round ${round}, killed ${delayMs} ms after ready (${random.describe()})`;
      expect(run.killed, `${context}: ${run.stderr}`).to.equal(true);
      expect(Number(run.lines[0]!.split(' ')[1]), `${context}: the start read an older version`).to.be.at.least(lastAcked);
      lastAcked = Math.max(lastAcked, ...run.acked.map(Number));
      // A kill before the first replacement ever finished leaves no file, which is right: nothing was acked.
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) =>
        error.code === 'ENOENT' && lastAcked === 0 ? undefined : Promise.reject(error),
      );
      if (text === undefined) continue;
      const stored = JSON.parse(text) as { version: number };
      expect(stored.version, context).to.be.at.least(lastAcked);
    }
    expect(lastAcked, 'no replacement was acked in any round').to.be.greaterThan(0);
    // Only the kills' temporary files are left beside it, never a second copy under the file's own name.
    expect((await readdir(dir)).filter((name) => name !== 'state.json' && !name.endsWith('.tmp'))).to.deep.equal([]);
  });
});
