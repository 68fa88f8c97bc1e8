import { expect } from 'chai';
import { chmodSync, existsSync, mkdirSync, readdirSync, realpathSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { filesOf } from '../filesOf';
import { git, gitDaemon, makeProject } from '../gitFixture';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';
import { scriptedTurns } from './turnScript';

const THREAD = 'thr_rewind0000000001';

describe('git.revert_turn / git.unrevert: a thread’s files back to a turn’s start, and forward again', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();

  async function threeTurns() {
    const root = realpathSync(await tempDir('ats-rewind-'));
    const { checkout } = makeProject(root);
    const daemon = gitDaemon(path.join(root, 'data'));
    const turns = scriptedTurns(checkout, THREAD, path.join(root, 'tmp'));
    const at = (name: string) => path.join(checkout, name);
    await turns.play('turn-1', () => {
      writeFileSync(at('src/lines.txt'), 'rewritten by turn 1\n');
      writeFileSync(at('new-untracked.txt'), 'made by turn 1\n');
    });
    git(checkout, 'add', 'README.md'); // staged by the user between turns: the index is theirs
    await turns.play('turn-2', () => {
      unlinkSync(at('README.md'));
      mkdirSync(at('deep/er'), { recursive: true });
      writeFileSync(at('deep/er/file.bin'), Buffer.from([0, 1, 2, 255]));
      chmodSync(at('run.sh'), 0o644);
      unlinkSync(at('readme-link'));
      symlinkSync('src/lines.txt', at('readme-link'));
    });
    await turns.play('turn-3', () => writeFileSync(at('new-untracked.txt'), 'changed by turn 3\n'));
    writeFileSync(at('after-last-turn.txt'), 'uncommitted, after every turn\n');
    return { root, checkout, daemon, turns };
  }

  it('reverts byte for byte (tracked, untracked, deleted, binary, mode, symlink) and unreverts to the state before', async () => {
    const { checkout, daemon, turns } = await threeTurns();
    const before = filesOf(checkout);
    const status = git(checkout, 'status', '--porcelain=v1', '--untracked-files=all');
    const answer = await daemon.call('git.revert_turn', { threadId: THREAD, path: checkout, turnId: 'turn-2' });
    expect(answer.undoneTurnIds).to.deep.equal(['turn-2', 'turn-3']);
    expect(answer.snapshotRef).to.match(/^refs\/ats\/reverts\/thr_rewind0000000001\/\d{15}-turn-2\/before$/);
    expect(filesOf(checkout)).to.deep.equal(turns.startFiles.get('turn-2'));
    expect(existsSync(path.join(checkout, '.env')), 'ignored files are left alone').to.equal(true);

    const unreverted = await daemon.call('git.unrevert', { threadId: THREAD, path: checkout });
    expect(unreverted).to.deep.equal({ turnId: 'turn-2', snapshotRef: answer.snapshotRef });
    expect(filesOf(checkout)).to.deep.equal(before);
    expect(git(checkout, 'status', '--porcelain=v1', '--untracked-files=all')).to.equal(status);
    expect(git(checkout, 'for-each-ref', 'refs/ats/reverts/')).to.equal('');
    git(checkout, 'fsck', '--strict', '--no-dangling');
  });

  it('reverts to the first turn, then to an earlier one again; unrevert pops the newest', async () => {
    const { checkout, daemon, turns } = await threeTurns();
    const before = filesOf(checkout);
    await daemon.call('git.revert_turn', { threadId: THREAD, path: checkout, turnId: 'turn-3' });
    expect(filesOf(checkout)).to.deep.equal(turns.startFiles.get('turn-3'));
    await daemon.call('git.revert_turn', { threadId: THREAD, path: checkout, turnId: 'turn-1' });
    expect(filesOf(checkout)).to.deep.equal(turns.startFiles.get('turn-1'));
    await daemon.call('git.unrevert', { threadId: THREAD, path: checkout });
    expect(filesOf(checkout)).to.deep.equal(turns.startFiles.get('turn-3'));
    await daemon.call('git.unrevert', { threadId: THREAD, path: checkout });
    expect(filesOf(checkout)).to.deep.equal(before);
    const nothing = await daemon.call('git.unrevert', { threadId: THREAD, path: checkout }).catch((error) => error);
    expect(nothing.hostCode).to.equal('nothing_to_unrevert');
  });

  it('refuses an unrevert once the files changed since the revert (they would be lost), and an unknown turn', async () => {
    const { checkout, daemon } = await threeTurns();
    await daemon.call('git.revert_turn', { threadId: THREAD, path: checkout, turnId: 'turn-2' });
    writeFileSync(path.join(checkout, 'edited-after-revert.txt'), 'keep me\n');
    const refused = await daemon.call('git.unrevert', { threadId: THREAD, path: checkout }).catch((error) => error);
    expect(refused.hostCode).to.equal('changed_since_revert');
    expect(existsSync(path.join(checkout, 'edited-after-revert.txt'))).to.equal(true);
    const unknown = await daemon.call('git.revert_turn', { threadId: THREAD, path: checkout, turnId: 'turn-9' }).catch((error) => error);
    expect(unknown.hostCode).to.equal('not_found');
  });

  it('works in a worktree of the project (a worktree thread) and leaves the user’s index and no temp file', async () => {
    const { root, checkout } = await threeTurns();
    const made = gitDaemon(path.join(root, 'data2'));
    const wt = await made.call('git.worktree_create', {
      threadId: 'thr_rewind0000000002',
      projectId: 'proj_rewind',
      checkout,
      branch: 'ats/rewind',
    });
    const turns = scriptedTurns(wt.path, 'thr_rewind0000000002', path.join(root, 'tmp'));
    await turns.play('t1', () => writeFileSync(path.join(wt.path, 'a.txt'), 'a\n'));
    await turns.play('t2', () => rmSync(path.join(wt.path, 'src'), { recursive: true }));
    const indexBefore = git(wt.path, 'ls-files', '--stage');
    await made.call('git.revert_turn', { threadId: 'thr_rewind0000000002', path: wt.path, turnId: 't1' });
    expect(filesOf(wt.path)).to.deep.equal(turns.startFiles.get('t1'));
    expect(git(wt.path, 'ls-files', '--stage')).to.equal(indexBefore);
    expect(readdirSync(path.join(root, 'data2', 'git-tmp'))).to.deep.equal([]);
    expect(readdirSync(path.join(root, 'data2', 'rewind')).filter((name) => !name.endsWith('.notice.json'))).to.deep.equal([]);
  });
});
