import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { from, lastValueFrom } from 'rxjs';
import type { NewThreadEvent } from '../../../src/store/eventStore';
import { filesOf } from '../../daemon/git/filesOf';
import { crashRandom } from '../../helpers/crash/harness';
import { git, initRepo } from '../../helpers/git/gitRepo';
import { startDaemonProcess, type DaemonProcess } from '../../helpers/hosts/daemonProcess';
import { startHostsServer, type HostsServer } from '../../helpers/hosts/server';
import { eventually } from '../../helpers/server/eventually';
import { TEST_TOKEN } from '../../helpers/server/harness';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';
import { treeFiles } from './treeFiles';

const ROUNDS = 4;
const TURNS = 3;

/** A turn's rows as the pipeline writes them (no agent: they are stored straight). */
function turnRows(threadId: string, turn: number): NewThreadEvent[] {
  const turnId = `turn-${turn}`;
  const row = (type: string, data: Record<string, unknown>) =>
    ({ threadId, type, turnId, scope: { kind: 'turn', turnId }, data: { providerThreadId: threadId, ...data } }) as NewThreadEvent;
  const user = { type: 'userMessage', id: `u${turn}`, content: [{ type: 'text', text: `Prompt ${turn}` }] };
  return [
    row('turn/started', { origin: 'client' }),
    row('item/started', { item: user }),
    row('item/completed', { item: user }),
    row('turn/completed', { status: 'completed', providerCheckpointId: turnId }),
  ];
}

/**
 * Issue 39: the host daemon (a real process on the link) SIGKILLed at random moments of a fork over HTTP. After
 * its restart the fork happened once (201: the thread, its rows ending with `thread/forked`, its worktree the
 * turn's tree byte for byte) or not at all (the POST failed: no thread, and no worktree of it once the host is
 * back: recovery undid a half-made one, the prune archived a whole one). Always: no git lock file left,
 * `git fsck` clean, the source's rows and files untouched.
 */
describe('server: the host daemon SIGKILLed in the middle of POST /threads/:id/fork (issue 39)', function () {
  this.timeout(240_000);
  const tempDir = suiteTempDirs();
  let s: HostsServer;
  let daemon: DaemonProcess | undefined;

  after(async () => {
    await daemon?.kill('SIGTERM');
    await s?.closeAll();
  });

  it('forks once or not at all, and leaves no half-made worktree or lock', async () => {
    const random = crashRandom();
    s = await startHostsServer({ heartbeatMs: 200, hostCommandTimeoutMs: 20_000 });
    const checkout = await tempDir('ats-fork-kill-repo-');
    const dataDir = await tempDir('ats-fork-kill-data-');
    const scratch = await tempDir('ats-fork-kill-index-');
    initRepo(checkout, { 'README.md': '# demo\n', 'src/a.txt': 'a\n' });
    const runDaemon = async () => {
      daemon = await startDaemonProcess(
        ['--server', s.linkBase, '--token', TEST_TOKEN, '--name', 'box', '--data-dir', dataDir, '--agent-providers', 'none'],
        { via: 'node' },
      );
      await s.hostOnline(daemon.hostId, true, 30_000);
      return daemon.hostId;
    };
    const hostId = await runDaemon();
    const project = await s.json('/projects', { body: { name: 'demo', source: { type: 'local_path', path: checkout, hostId } } });
    const source = await s.json('/threads', {
      body: { projectId: project.id, provider: 'pi', model: 'fake/model', title: 'source', workspace: 'worktree' },
    });
    const sourceFolder: string = source.workspace.path;
    await lastValueFrom(from(s.server.store.append(Array.from({ length: TURNS }, (_, turn) => turnRows(source.id, turn + 1)).flat())));
    let tree = '';
    for (let turn = 1; turn <= TURNS; turn++) {
      writeFileSync(path.join(sourceFolder, `turn-${turn}.txt`), `turn ${turn}\n`);
      const env = { ...process.env, GIT_INDEX_FILE: path.join(scratch, 'index') };
      execFileSync('git', ['add', '--all'], { cwd: sourceFolder, env });
      const written = execFileSync('git', ['write-tree'], { cwd: sourceFolder, env, encoding: 'utf8' }).trim();
      if (turn === 2) tree = written;
      const base = `refs/ats/turns/${source.id}/${String(1_700_000_000_000 + turn).padStart(15, '0')}-turn-${turn}`;
      git(checkout, 'update-ref', `${base}/start`, written);
      git(checkout, 'update-ref', `${base}/end`, written);
    }
    const expectedFiles = treeFiles(checkout, tree);
    const sourceRows = JSON.stringify(await s.server.store.list(source.id));
    const sourceFiles = filesOf(sourceFolder);
    const made: Array<{ id: string; path: string }> = [];

    for (let round = 0; round < ROUNDS; round++) {
      const context = `round ${round} (${random.describe()})`;
      const threadsBefore = (await s.json('/threads')).map((thread: { id: string }) => thread.id);
      const answer = s.api(`/threads/${source.id}/fork`, { body: { turnId: 'turn-2' } });
      await new Promise((resolve) => setTimeout(resolve, random.between(0, 1500)));
      await daemon!.kill('SIGKILL');
      const response = await answer;
      const body = await response.json();
      await runDaemon();
      const threads = (await s.json('/threads')).map((thread: { id: string }) => thread.id);
      if (response.status === 201) {
        expect(threads, context).to.include(body.id);
        const rows = await s.server.store.list(body.id);
        expect(
          rows.map((row) => row.seq),
          context,
        ).to.deep.equal(rows.map((_, i) => i + 1));
        expect(rows.at(-1), context).to.deep.include({ type: 'thread/forked' });
        made.push({ id: body.id, path: body.workspace.path });
      } else {
        expect(response.status, `${context}: ${JSON.stringify(body)}`).to.be.oneOf([502, 504]);
        expect(threads, context).to.deep.equal(threadsBefore);
      }
      // Once the host is back (its recovery ran, the server's prune after its hello): only whole forks are worktrees.
      const expected = [checkout, sourceFolder, ...made.map((fork) => fork.path)].sort();
      await eventually(
        () => {
          const listed = git(checkout, 'worktree', 'list', '--porcelain')
            .split('\n')
            .filter((line) => line.startsWith('worktree '))
            .map((line) => line.slice('worktree '.length))
            .sort();
          return JSON.stringify(listed) === JSON.stringify(expected) ? listed : undefined;
        },
        `the worktrees of ${context}`,
        30_000,
      );
      for (const fork of made) expect(filesOf(fork.path), context).to.deep.equal(expectedFiles);
      expect(execFileSync('find', [path.join(checkout, '.git'), '-name', '*.lock'], { encoding: 'utf8' }), context).to.equal('');
      expect(git(checkout, 'fsck', '--no-progress', '--no-dangling'), context).to.equal('');
      expect(JSON.stringify(await s.server.store.list(source.id)), context).to.equal(sourceRows);
      expect(filesOf(sourceFolder), context).to.deep.equal(sourceFiles);
    }
  });
});
