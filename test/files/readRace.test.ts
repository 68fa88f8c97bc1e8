import { expect } from 'chai';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { readFile } from '../../src/files/readFile';
import { readFileRelative } from '../../src/files/readFileRelative';
import type { ReadFileResult } from '../../src/protocol/hostFiles';
import { describeTally, raceReads, type Tally } from '../helpers/files/raceReads';
import { startSymlinkSwapper, type SwapState } from '../helpers/files/symlinkSwapper';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

const READS = 2000;

/**
 * The host commands themselves under a racing swapper (the HTTP route's race: test/server/fileReadRace.test.ts):
 * `notes.txt` in the root flips between a regular file and a symlink while at least `READS` reads run.
 */
describe('host file reads judge the file they opened, not the path checked before (issue 30)', function () {
  this.timeout(60_000);
  let root: string;
  let outside: string;
  beforeEach(() => {
    outside = createTempTree({ 'secret.txt': 'outside' });
    root = createTempTree({ '.private': { 'key.txt': 'dot' } });
  });
  afterEach(() => {
    removeTempTree(root);
    removeTempTree(outside);
  });

  async function whileSwapping(states: SwapState[], read: () => Promise<ReadFileResult>): Promise<Tally> {
    const swapper = await startSymlinkSwapper(join(root, 'notes.txt'), states);
    const outcome = () =>
      read().then(
        (result) => result.content,
        (error: { code: string }) => error.code,
      );
    return raceReads(outcome, { reads: READS, seen: ['inside'] }).finally(() => swapper.stop());
  }

  it('host.read_file_relative: 0 of 2,000 reads return the outside content', async () => {
    const tally = await whileSwapping([{ file: 'inside' }, { symlink: join(outside, 'secret.txt') }], () =>
      readFileRelative({ rootPath: root, path: 'notes.txt', dotfiles: 'allow' }),
    );
    expect(tally.outside ?? 0, `reads that returned the outside content: ${describeTally(tally)}`).to.equal(0);
    expect(tally.inside ?? 0, `reads of the inside file: ${describeTally(tally)}`).to.be.greaterThan(0);
  });

  it('host.read_file_relative with dotfiles deny: 0 of 2,000 reads return a dot file a swapped link leads to', async () => {
    const tally = await whileSwapping([{ file: 'inside' }, { symlink: join(root, '.private', 'key.txt') }], () =>
      readFileRelative({ rootPath: root, path: 'notes.txt', dotfiles: 'deny' }),
    );
    expect(tally.dot ?? 0, `reads that returned the dot file: ${describeTally(tally)}`).to.equal(0);
    expect(tally.inside ?? 0, `reads of the inside file: ${describeTally(tally)}`).to.be.greaterThan(0);
  });

  it('host.read_file on a host with allowed folders: 0 of 2,000 reads return the outside content', async () => {
    const allowed = [realpathSync(root)];
    const tally = await whileSwapping([{ file: 'inside' }, { symlink: join(outside, 'secret.txt') }], () =>
      readFile({ path: join(root, 'notes.txt') }, allowed),
    );
    expect(tally.outside ?? 0, `reads that returned the outside content: ${describeTally(tally)}`).to.equal(0);
    expect(tally.inside ?? 0, `reads of the inside file: ${describeTally(tally)}`).to.be.greaterThan(0);
  });
});
