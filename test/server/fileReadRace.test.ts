import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describeTally, raceReads } from '../helpers/files/raceReads';
import { startSymlinkSwapper } from '../helpers/files/symlinkSwapper';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const READS = 2000;
/** Reads in flight at once: the route's two host calls (resolve, then read) of several reads interleave with the swaps. */
const IN_FLIGHT = 8;
const INSIDE = 'inside content\n';
const OUTSIDE = 'outside secret\n';

describe('server: a file read never follows a symlink swapped in after the root check (issue 30)', function () {
  // 2,000 reads over HTTP with a swapper taking a core: 10–45 s on a loaded 2-core machine.
  this.timeout(180_000);
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
    await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: root, hostId: t.server.hostId } } });
  });
  after(() => t.close());
  const tempDir = suiteTempDirs();

  it('2,000 reads of a file swapped between a regular file inside and a symlink outside: 0 return the outside content', async () => {
    const file = path.join(root, 'notes.txt');
    const swapper = await startSymlinkSwapper(file, [{ file: INSIDE }, { symlink: secret }]);
    const read = async () => {
      const response = await t.api('/files/read', { body: { hostId: t.server.hostId, path: file } });
      const body = (await response.json()) as { content?: string; code?: string };
      if (!response.ok) return body.code!;
      return body.content === OUTSIDE ? 'outside' : body.content === INSIDE ? 'inside' : 'other';
    };
    const tally = await raceReads(read, { reads: READS, inFlight: IN_FLIGHT, seen: ['inside'] }).finally(() => swapper.stop());
    expect(tally.outside ?? 0, `reads that returned the outside content: ${describeTally(tally)}`).to.equal(0);
    expect(tally.inside ?? 0, `reads of the inside file: ${describeTally(tally)}`).to.be.greaterThan(0);
  });
});

describe('server: a folder browse never lists a folder swapped in after the check (issue 30)', function () {
  this.timeout(120_000);
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

  it('1,000 browses of a link swapped between a folder inside ATS_ALLOW_ROOTS and one outside: 0 list the outside', async () => {
    const link = path.join(root, 'link');
    const swapper = await startSymlinkSwapper(link, [{ symlink: path.join(root, 'real') }, { symlink: outside }]);
    const browse = async () => {
      const response = await t.api(`/hosts/${t.server.hostId}/directories?path=${encodeURIComponent(link)}`);
      const body = (await response.json()) as { entries?: Array<{ name: string }>; code?: string };
      if (!response.ok) return body.code!;
      const names = body.entries!.map((entry) => entry.name).join(',');
      return names === 'inside-name' ? 'inside' : names === 'outside-name' ? 'outside' : `other: ${names}`;
    };
    const tally = await raceReads(browse, { reads: BROWSES, seen: ['inside'] }).finally(() => swapper.stop());
    expect(tally.outside ?? 0, `browses that listed the outside folder: ${describeTally(tally)}`).to.equal(0);
    expect(tally.inside ?? 0, `browses of the inside folder: ${describeTally(tally)}`).to.be.greaterThan(0);
  });
});
