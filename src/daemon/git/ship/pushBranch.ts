import type { GitPushParams, GitPushResult } from '../../../protocol/hostShipCommands';
import { HostCommandError } from '../../../protocol/hostErrors';
import { SHIP_ROW_TYPE } from '../../../protocol/shipRows';
import { runGit } from '../runGit';
import { headOf } from './headOf';
import { runTimed } from './runTimed';
import { dropShipJournal, writeShipJournal } from './shipJournal';
import type { RemoteLimits, ShipDeps } from './shipDeps';

/** Where a push goes: the remote, the local branch and the remote branch (the upstream's name, else the same). */
export interface PushTarget {
  remote: string;
  branch: string;
  remoteBranch: string;
  sha: string;
  /** The branch's upstream is this remote branch already: `-u` would only write the same two settings again. */
  upstreamSet?: boolean;
}

/**
 * `git.push`: `git push -u <remote> <branch>:<remote branch>` of the folder's current branch, with no prompt and
 * a deadline. Refusals come back with stable codes and git's own words: `no_remote`, `push_rejected`,
 * `auth_failed`, `git_timeout`. The push is journalled first, so a kill mid-push is settled at the next start
 * by asking the remote whether it has the commit.
 */
export async function pushBranch(params: GitPushParams, deps: ShipDeps): Promise<GitPushResult> {
  const { upstreamSet, ...target } = await pushTarget(params.path, params.remote);
  const journal = { action: 'push' as const, threadId: params.threadId, path: params.path, ...target };
  await writeShipJournal(deps.dataDir, journal);
  try {
    const pushed = await runPush(params.path, { ...target, upstreamSet }, deps.remote);
    await deps.announce(params.threadId, SHIP_ROW_TYPE.pushed, { remote: target.remote, branch: target.branch, sha: target.sha });
    return { remote: target.remote, branch: target.branch, sha: target.sha, pushed };
  } finally {
    await dropShipJournal(deps.dataDir, params.threadId);
  }
}

/** The default remote is the branch's upstream remote, else `origin` (what `git push` itself would pick). */
export async function pushTarget(cwd: string, remote: string | undefined): Promise<PushTarget> {
  // One git call for every remote and branch setting (parsed here); HEAD meanwhile, from git's files.
  const reading = runGit(['config', '--get-regexp', '^(remote\\..*\\.url|branch\\..*\\.(remote|merge))$'], { cwd }).catch(() => ({
    stdout: '',
  }));
  const [{ commit: sha, ref }, config] = await Promise.all([headOf(cwd), reading]);
  if (!ref.startsWith('refs/heads/')) throw new HostCommandError('no_branch', `${cwd} is on a detached HEAD: there is no branch to push`);
  const branch = ref.slice('refs/heads/'.length);
  const settings = config.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)] as const);
  const setting = (key: string) => settings.filter(([name]) => name === key).pop()?.[1] ?? '';
  const remotes = [
    ...new Set(settings.filter(([name]) => /^remote\..*\.url$/.test(name)).map(([name]) => name.slice('remote.'.length, -'.url'.length))),
  ];
  const upstreamRemote = setting(`branch.${branch}.remote`);
  const chosen = remote ?? (upstreamRemote && upstreamRemote !== '.' ? upstreamRemote : 'origin');
  if (chosen.startsWith('-')) throw new HostCommandError('invalid_params', `${JSON.stringify(chosen)} is not a remote name`);
  if (!remotes.includes(chosen)) {
    throw new HostCommandError(
      'no_remote',
      remotes.length === 0
        ? `the repository at ${cwd} has no remote: add one (git remote add origin <url>) to push`
        : `the repository has no remote ${JSON.stringify(chosen)} (it has ${remotes.join(', ')})`,
    );
  }
  const merge = chosen === upstreamRemote ? setting(`branch.${branch}.merge`) : '';
  const remoteBranch = merge.startsWith('refs/heads/') ? merge.slice('refs/heads/'.length) : branch;
  // One value each, naming this remote branch: what `-u` would write is there already.
  const once = (key: string) => settings.filter(([name]) => name === key).length === 1;
  const upstreamSet = merge === `refs/heads/${remoteBranch}` && once(`branch.${branch}.remote`) && once(`branch.${branch}.merge`);
  return { remote: chosen, branch, remoteBranch, sha, upstreamSet };
}

/** Runs the push; resolves whether anything was sent, throws the refusal as a stable code. */
export async function runPush(cwd: string, target: PushTarget, limits: RemoteLimits): Promise<boolean> {
  const refspec = `refs/heads/${target.branch}:refs/heads/${target.remoteBranch}`;
  const setUpstream = target.upstreamSet ? [] : ['-u'];
  const out = await runTimed('git', ['push', ...setUpstream, '--porcelain', '--', target.remote, refspec], { cwd, ...limits });
  if (out.timedOut) {
    throw new HostCommandError(
      'git_timeout',
      `git push to ${target.remote} did not end within ${Math.round(limits.timeoutMs / 1000)} s and was stopped`,
    );
  }
  if (out.exitCode === 0) return !/^=\t/m.test(out.stdout);
  throw pushRefusal(target.remote, `${out.stdout}\n${out.stderr}`.trim());
}

/** Git's words → the stable code a caller can act on; the words stay in the message. */
export function pushRefusal(remote: string, words: string): HostCommandError {
  if (/\[rejected\]|\[remote rejected\]|non-fast-forward|fetch first|stale info|^!\t/m.test(words)) {
    return new HostCommandError('push_rejected', `${remote} refused the push: ${words}`);
  }
  if (
    /Authentication failed|could not read (Username|Password)|terminal prompts disabled|Permission denied|403|401|access denied|Host key verification failed/i.test(
      words,
    )
  ) {
    return new HostCommandError('auth_failed', `${remote} wants credentials this host does not have: ${words}`);
  }
  if (/does not appear to be a git repository|Could not read from remote repository|No such remote/i.test(words)) {
    return new HostCommandError('no_remote', `${remote} cannot be reached as a git repository: ${words}`);
  }
  return new HostCommandError('git_failed', `git push to ${remote} failed: ${words}`);
}
