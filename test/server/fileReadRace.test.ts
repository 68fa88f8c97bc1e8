import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';
import { startSymlinkSwapper } from '../helpers/files/symlinkSwapper';

const READS = 2000;
/** Reads in flight at once: the route's two host calls (resolve, read) of several reads interleave with the swaps. */
const IN_FLIGHT = 8;
const INSIDE = 'inside content\n';
const OUTSIDE = 'outside secret\n';

/** How each read answered: the file's content, or the problem code. */
type Tally = Record<string, number>;

describe('server: a file read never follows a symlink swapped in after the root check (issue 30)', () => {
  let t: TestServer;
  let root: string;
  let secret: string;

  before(async () => {
    t = await startTestServer({ config: { agentProviders: 'none' } });
    const base = await tempDir('ats-race-');
    root = path.join(base, 'project');
    secret = path.join(base, 'outside', 'secret.txt');
    await mkdir(path.dirname(secret), { recursive: true });
    await mkdir(root, { recursive: true });
    await writeFile(secret, OUTSIDE);
    await writeFile(path.join(root, 'inside.txt'), INSIDE);
    await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: root, hostId: t.server.hostId } } });
  });
  after(() => t.close());
  const tempDir = suiteTempDirs();

  async function readsWhileSwapping(file: string): Promise<Tally> {
    const tally: Tally = {};
    let next = 0;
    const reader = async () => {
      while (next < READS) {
        next++;
        const response = await t.api('/files/read', { body: { hostId: t.server.hostId, path: file } });
        const body = (await response.json()) as { content?: string; code?: string };
        const outcome = response.ok ? (body.content === OUTSIDE ? 'outside' : body.content === INSIDE ? 'inside' : 'other') : body.code!;
        tally[outcome] = (tally[outcome] ?? 0) + 1;
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, reader));
    return tally;
  }

  it('2,000 reads of a file swapped between a regular file inside and a symlink outside: 0 return the outside content', async () => {
    const file = path.join(root, 'notes.txt');
    const swapper = await startSymlinkSwapper(file, [{ file: INSIDE }, { symlink: secret }]);
    const tally = await readsWhileSwapping(file).finally(() => swapper.stop());
    const summary = `${JSON.stringify(tally)} over ${READS} reads`;
    expect(tally.outside ?? 0, `reads that returned the outside content: ${summary}`).to.equal(0);
    expect(tally.inside ?? 0, `some reads must see the inside file: ${summary}`).to.be.greaterThan(0);
  });
});

describe('server: a folder browse never lists a folder swapped in after the check (issue 30)', () => {
  const BROWSES = 1000;
  let t: TestServer;
  let root: string;
  let outside: string;

  before(async () => {
    const base = await tempDir('ats-race-browse-');
    root = path.join(base, 'allowed');
    outside = path.join(base, 'outside');
    await mkdir(path.join(root, 'real', 'inside-name'), { recursive: true });
    await mkdir(path.join(outside, 'outside-name'), { recursive: true });
    t = await startTestServer({ config: { agentProviders: 'none', allowRoots: root } });
  });
  after(() => t.close());
  const tempDir = suiteTempDirs();

  it(`1,000 browses of a link swapped between a folder inside ATS_ALLOW_ROOTS and one outside: 0 list the outside`, async () => {
    const link = path.join(root, 'link');
    const swapper = await startSymlinkSwapper(link, [{ symlink: path.join(root, 'real') }, { symlink: outside }]);
    const tally: Tally = {};
    try {
      for (let i = 0; i < BROWSES; i++) {
        const response = await t.api(`/hosts/${t.server.hostId}/directories?path=${encodeURIComponent(link)}`);
        const body = (await response.json()) as { entries?: Array<{ name: string }>; code?: string };
        const names = body.entries?.map((entry) => entry.name).join(',');
        const outcome = response.ok ? (names === 'inside-name' ? 'inside' : names === 'outside-name' ? 'outside' : `other:${names}`) : body.code!;
        tally[outcome] = (tally[outcome] ?? 0) + 1;
      }
    } finally {
      await swapper.stop();
    }
    const summary = `${JSON.stringify(tally)} over ${BROWSES} browses`;
    expect(tally.outside ?? 0, `browses that listed the outside folder: ${summary}`).to.equal(0);
    expect(tally.inside ?? 0, `some browses must list the inside folder: ${summary}`).to.be.greaterThan(0);
  });
});
