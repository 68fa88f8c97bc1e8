import { expect } from 'chai';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { crashRandom } from '../../../helpers/crash/harness';
import { filesOf } from '../filesOf';
import { git, makeProject } from '../gitFixture';
import { startChild, type WingChild } from '../gitKillRounds';
import { scriptedTurns } from './turnScript';

const THREAD = 'thr_rewindkill000001';
const CHILD = 'test/daemon/git/rewind/rewindDaemonChild.ts';
const TURNS = 5;

export interface RewindKillResult {
  rounds: number;
  killedMidCommand: number;
  happened: number;
  seed: string;
}

/**
 * The rewind kill test (issue 39): a real daemon in a child process reverts a scripted thread to a random turn
 * or unreverts, and is SIGKILLed at a random moment. After each restart (its start-up recovery) the step
 * happened once or not at all, and the thread says which: the `thread/reverted` / `thread/unreverted` rows grew
 * by one or by none, the files are byte for byte what the rows say (a turn's start, or the state before the
 * revert undone), no journal, temporary index or `index.lock` is left, the user's index is as it was, and
 * `git fsck` is clean.
 */
export async function runRewindKillRounds(options: { root: string; rounds: number; maxDelayMs: number }): Promise<RewindKillResult> {
  const random = crashRandom();
  const { checkout } = makeProject(options.root);
  const dataDir = path.join(options.root, 'data');
  const cache = path.join(options.root, 'transpiled');
  const turns = scriptedTurns(checkout, THREAD, path.join(options.root, 'tmp'));
  for (let turn = 1; turn <= TURNS; turn++) {
    await turns.play(`turn-${turn}`, () => writeFileSync(path.join(checkout, `file-${turn % 3}.txt`), `turn ${turn}\n`.repeat(turn * 500)));
  }
  const index = git(checkout, 'ls-files', '--stage');
  // What the rows say so far: each revert's state before it, newest last.
  const stack: Array<Record<string, string>> = [];
  let expected = filesOf(checkout);
  let rowCount = 0;
  let happened = 0;
  let killedMidCommand = 0;
  let pendingKind: 'revert' | 'unrevert' | null = null;
  let pendingTurn = '';
  let beforePending: Record<string, string> = expected;

  const check = async (child: WingChild, context: string): Promise<void> => {
    // Any command waits for the start-up recovery: after this, a cut-short step is finished or never began.
    await child.request('git.diff', { threadId: THREAD, path: checkout, scope: 'uncommitted' });
    const rows = ((await child.request('rows', { threadId: THREAD })) as Array<{ type: string; data: any }>).filter((row) =>
      row.type.startsWith('thread/'),
    );
    expect(rows.length - rowCount, `${context}: the step's row once or not at all`).to.be.within(0, pendingKind ? 1 : 0);
    if (rows.length > rowCount) {
      const row = rows.at(-1)!;
      happened += 1;
      expect(row.type, context).to.equal(pendingKind === 'revert' ? 'thread/reverted' : 'thread/unreverted');
      if (pendingKind === 'revert') {
        expect(row.data.turnId, context).to.equal(pendingTurn);
        stack.push(beforePending);
        expected = turns.startFiles.get(pendingTurn)!;
      } else expected = stack.pop()!;
    }
    rowCount = rows.length;
    pendingKind = null;
    expect(filesOf(checkout), `${context}: the files are what the rows say`).to.deep.equal(expected);
    expect(git(checkout, 'ls-files', '--stage'), `${context}: the user's index`).to.equal(index);
    expect(existsSync(path.join(checkout, '.git', 'index.lock')), `${context}: index.lock`).to.equal(false);
    const namesIn = (folder: string) => (existsSync(path.join(dataDir, folder)) ? readdirSync(path.join(dataDir, folder)) : []);
    expect(
      namesIn('rewind').filter((name) => !name.endsWith('.notice.json')),
      `${context}: a journal left`,
    ).to.deep.equal([]);
    expect(namesIn('git-tmp'), `${context}: a temporary index left`).to.deep.equal([]);
    expect(git(checkout, 'fsck', '--no-progress', '--no-dangling'), context).to.equal('');
    const reverts = git(checkout, 'for-each-ref', '--format=%(refname)', `refs/ats/reverts/${THREAD}/`);
    expect(reverts.split('\n').filter((ref) => ref.endsWith('/before')).length, `${context}: a ref per revert not undone`).to.equal(
      stack.length,
    );
  };

  for (let round = 0; round < options.rounds; round++) {
    const child = startChild(dataDir, cache, CHILD);
    try {
      await child.ready;
      await check(child, `round ${round} (${random.describe()})`);
      if (stack.length > 0 && random.next() < 0.4) pendingKind = 'unrevert';
      else {
        pendingKind = 'revert';
        pendingTurn = `turn-${random.between(1, TURNS)}`;
        if (stack.length === 0) writeFileSync(path.join(checkout, 'user-edit.txt'), `round ${round}\n`); // uncommitted work to keep
      }
      beforePending = filesOf(checkout);
      expected = beforePending; // what the files must be if the step never happened
      const answered = child
        .request(
          pendingKind === 'revert' ? 'git.revert_turn' : 'git.unrevert',
          pendingKind === 'revert' ? { threadId: THREAD, path: checkout, turnId: pendingTurn } : { threadId: THREAD, path: checkout },
        )
        .then(
          () => true,
          () => true,
        );
      const delay = new Promise<false>((resolve) => setTimeout(() => resolve(false), random.between(0, options.maxDelayMs)));
      if (!(await Promise.race([answered, delay]))) killedMidCommand += 1;
    } finally {
      await child.kill();
    }
  }
  const last = startChild(dataDir, cache, CHILD);
  try {
    await last.ready;
    await check(last, `the last start (${random.describe()})`);
  } finally {
    await last.kill();
  }
  return { rounds: options.rounds, killedMidCommand, happened, seed: random.describe() };
}
