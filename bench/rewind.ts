/**
 * `npm run bench:rewind` (issue 39): a 200-turn scripted thread (TURNS) on a real repository, each turn
 * changing, adding, deleting or chmod-ing a few files; then revert and unrevert at 50 random turns (POINTS)
 * through the git wing's dispatcher. After each revert the files must be byte for byte those at the turn's
 * start, after each unrevert those before it; `git fsck` must be clean at the end. Prints median timings beside
 * the raw git commands that do the same in the same run (a temporary index: `add -A`, `write-tree`,
 * `read-tree -u --reset <tree>`). `CRASH_SEED` replays a run.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crashRandom } from '../test/helpers/crash/harness';
import { filesOf } from '../test/daemon/git/filesOf';
import { git, gitDaemon, makeProject } from '../test/daemon/git/gitFixture';
import { scriptedTurns } from '../test/daemon/git/rewind/turnScript';

const TURNS = Number(process.env.TURNS ?? 200);
const POINTS = Number(process.env.POINTS ?? 50);
const FILES = 300;
const THREAD = 'thr_benchrewind00001';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const since = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

function equal(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

async function main(): Promise<void> {
  const random = crashRandom();
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'bench-rewind-')));
  try {
    const { checkout } = makeProject(root);
    for (let file = 0; file < FILES; file++) writeFileSync(path.join(checkout, `f${file}.txt`), `file ${file}\n`.repeat(40));
    git(checkout, 'add', '-A');
    git(checkout, 'commit', '-q', '-m', 'files');
    const daemon = gitDaemon(path.join(root, 'data'));
    const turns = scriptedTurns(checkout, THREAD, path.join(root, 'tmp'));
    const at = (name: string) => path.join(checkout, name);
    const scripting = process.hrtime.bigint();
    for (let turn = 0; turn < TURNS; turn++) {
      await turns.play(`turn-${turn}`, () => {
        for (let edit = 0; edit < 4; edit++) {
          const name = `f${random.between(0, FILES + 50)}.txt`;
          const roll = random.next();
          if (roll < 0.15 && existsSync(at(name))) unlinkSync(at(name));
          else if (roll < 0.2 && existsSync(at(name))) chmodSync(at(name), random.next() < 0.5 ? 0o755 : 0o644);
          else writeFileSync(at(name), `turn ${turn} edit ${edit}\n`.repeat(random.between(1, 60)));
        }
      });
    }
    console.log(`scripted ${TURNS} turns in ${(since(scripting) / 1000).toFixed(1)} s (${random.describe()})`);

    const revertMs: number[] = [];
    const unrevertMs: number[] = [];
    const rawMs: number[] = [];
    for (let point = 0; point < POINTS; point++) {
      const turnId = `turn-${random.between(0, TURNS - 1)}`;
      const before = filesOf(checkout);
      let started = process.hrtime.bigint();
      await daemon.call('git.revert_turn', { threadId: THREAD, path: checkout, turnId });
      revertMs.push(since(started));
      if (!equal(filesOf(checkout), turns.startFiles.get(turnId)!)) throw new Error(`revert to ${turnId}: files differ from its start`);
      started = process.hrtime.bigint();
      await daemon.call('git.unrevert', { threadId: THREAD, path: checkout });
      unrevertMs.push(since(started));
      if (!equal(filesOf(checkout), before)) throw new Error(`unrevert of ${turnId}: files differ from before`);
      rawMs.push(rawRevertAndBack(checkout, root, turnId));
    }
    const fsck = git(checkout, 'fsck', '--strict', '--no-progress', '--no-dangling');
    if (fsck !== '') throw new Error(`git fsck: ${fsck}`);
    const raw = median(rawMs) / 2;
    console.log(
      `${POINTS} reverts + unreverts of a ${TURNS}-turn thread (${FILES}+ files): byte for byte each time, git fsck clean\n` +
        `  revert   median ${median(revertMs).toFixed(0)} ms, max ${Math.max(...revertMs).toFixed(0)} ms (${(median(revertMs) / raw).toFixed(2)}× raw)\n` +
        `  unrevert median ${median(unrevertMs).toFixed(0)} ms, max ${Math.max(...unrevertMs).toFixed(0)} ms (${(median(unrevertMs) / raw).toFixed(2)}× raw)\n` +
        `  raw git (temp index: add -A, write-tree, read-tree -u --reset) median ${raw.toFixed(0)} ms a direction`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The raw git commands for the same change there and back; answers their time (ms), files left as before. */
function rawRevertAndBack(checkout: string, root: string, turnId: string): number {
  const env = { ...process.env, GIT_INDEX_FILE: path.join(root, 'raw-index') };
  const run = (...args: string[]) => execFileSync('git', args, { cwd: checkout, env, encoding: 'utf8' }).trim();
  const start = git(checkout, 'rev-parse', `${turnRef(checkout, turnId)}/start`).trim();
  const started = process.hrtime.bigint();
  run('add', '-A');
  const now = run('write-tree');
  run('read-tree', '-u', '--reset', start);
  run('add', '-A');
  run('read-tree', '-u', '--reset', now);
  const took = since(started);
  rmSync(env.GIT_INDEX_FILE, { force: true });
  return took;
}

function turnRef(checkout: string, turnId: string): string {
  const refs = git(checkout, 'for-each-ref', '--format=%(refname)', `refs/ats/turns/${THREAD}/`).trim().split('\n');
  return refs.find((ref) => ref.endsWith(`-${turnId}/start`))!.slice(0, -'/start'.length);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
