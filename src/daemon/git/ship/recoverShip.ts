import { SHIP_ROW_TYPE } from '../../../protocol/shipRows';
import { runGit } from '../runGit';
import { committedFiles } from './commitFiles';
import { promises as fs } from 'node:fs';
import { levelIndex } from './levelIndex';
import { runPush } from './pushBranch';
import { remoteTip } from './pullRequest';
import { dropShipJournal, dropShipLeftovers, readShipJournals, type ShipJournal } from './shipJournal';
import type { ShipDeps } from './shipDeps';

/**
 * At daemon start, before any command is served: every commit or push a kill cut short is settled, and the
 * thread gets the row that says which. A commit happened when its branch is at (or past) the journalled
 * commit: the index is levelled as the commit would have left it (a lock left mid-way removed). A push happened when the remote has the
 * commit on its branch: the push runs again to set the upstream (nothing is sent). Otherwise it did not
 * happen (`git/interrupted`), and nothing of it is left: the commit object is unreferenced and git's gc
 * drops it. A journal is dropped only after its row was written.
 */
export async function recoverShip(deps: ShipDeps): Promise<void> {
  for (const journal of await readShipJournals(deps.dataDir, deps.log)) {
    try {
      await gitChildEnded(journal, deps.remote.timeoutMs);
      await settle(journal, deps);
    } catch (error) {
      deps.log(`ship recovery of ${journal.action} in ${journal.path}: ${(error as Error).message}`);
    }
    await dropShipJournal(deps.dataDir, journal.threadId);
  }
  await dropShipLeftovers(deps.dataDir);
}

/**
 * A SIGKILL ends the daemon, not the git it started: a `git commit` or `git push` may still be running, and
 * would finish after a judgement of "not at all". So the judgement waits (at most the ship timeout) for it:
 * a commit's git holds its index copy's lock until after the branch moved; a push is known by its pid.
 */
async function gitChildEnded(journal: ShipJournal, timeoutMs: number): Promise<void> {
  const running =
    journal.action === 'commit'
      ? () =>
          fs.access(`${journal.tempIndex}.lock`).then(
            () => true,
            () => false,
          )
      : async () => journal.pid !== undefined && alive(journal.pid);
  const until = Date.now() + timeoutMs;
  while ((await running()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function settle(journal: ShipJournal, deps: ShipDeps): Promise<void> {
  const interrupted = (message: string) => deps.announce(journal.threadId, SHIP_ROW_TYPE.interrupted, { action: journal.action, message });
  if (journal.action === 'commit') {
    const made = await commitOfJournal(journal);
    if (!made) return interrupted('the host stopped before the commit was made: nothing was committed');
    // A kill while the index was being put in place (levelIndex.ts) leaves our `index.lock`: only the commit
    // that moved the branch takes it, so one found now is ours, and the reset below writes the index anew.
    const { stdout } = await runGit(['rev-parse', '--path-format=absolute', '--git-path', 'index'], { cwd: journal.path });
    await fs.rm(`${stdout.trim()}.lock`, { force: true });
    await levelIndex(journal.path, journal.paths);
    const branch = journal.ref.startsWith('refs/heads/') ? journal.ref.slice('refs/heads/'.length) : null;
    return deps.announce(journal.threadId, SHIP_ROW_TYPE.committed, { ...made, message: journal.message, branch, recovered: true });
  }
  const tip = await remoteTip(journal.path, journal.remote, journal.remoteBranch, deps.remote);
  if (tip !== journal.sha) return interrupted(`the host stopped before ${journal.remote} had the push: nothing was pushed`);
  await runPush(journal.path, journal, deps.remote).catch((error: Error) => deps.log(`ship recovery: upstream not set: ${error.message}`));
  return deps.announce(journal.threadId, SHIP_ROW_TYPE.pushed, {
    remote: journal.remote,
    branch: journal.branch,
    sha: journal.sha,
    recovered: true,
  });
}

/**
 * The journalled commit if it was made: the first commit after the journalled one on the ref, whose parent
 * is that one and whose message is the journalled message (the user may have committed again since).
 */
async function commitOfJournal(journal: Extract<ShipJournal, { action: 'commit' }>): Promise<{ sha: string; files: string[] } | null> {
  const cwd = journal.path;
  const { stdout } = await runGit(['rev-list', '--reverse', '--parents', '--first-parent', `${journal.old}..${journal.ref}`], {
    cwd,
  }).catch(() => ({ stdout: '' }));
  const [sha, parent] = stdout.split('\n')[0]?.split(' ') ?? [];
  if (!sha || parent !== journal.old) return null;
  const message = (await runGit(['log', '-1', '--format=%B', sha], { cwd })).stdout;
  if (message.replace(/\n+$/, '') !== journal.message.replace(/\n+$/, '')) return null;
  return committedFiles(cwd, sha);
}
