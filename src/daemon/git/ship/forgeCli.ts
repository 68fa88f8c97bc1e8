import { HostCommandError } from '../../../protocol/hostErrors';
import type { PullRequest } from '../../../protocol/hostShipCommands';
import { runGit } from '../runGit';
import { runTimed, type TimedOutput } from './runTimed';
import type { RemoteLimits } from './shipDeps';

/** The forge CLI that speaks for a remote: `glab` for a GitLab remote, `gh` for the rest (GitHub, GitHub Enterprise). */
export interface ForgeCli {
  program: 'gh' | 'glab';
  /** What the user installs and runs when it is missing or logged out. */
  install: string;
  login: string;
  createArgs(options: { title?: string; body?: string; base?: string; head: string; draft?: boolean }): { args: string[]; input?: string };
  viewArgs(url: string): string[];
  /** The CLI's JSON of one pull request → ours. */
  parseView(json: unknown): PullRequest;
}

const gh: ForgeCli = {
  program: 'gh',
  install: 'install the GitHub CLI (https://cli.github.com)',
  login: 'gh auth login',
  createArgs: ({ title, body, base, head, draft }) => ({
    args: [
      'pr',
      'create',
      '--head',
      head,
      ...(base ? ['--base', base] : []),
      ...(draft ? ['--draft'] : []),
      // No title: gh fills title and body from the branch's commits, as its own prompt would offer.
      ...(title ? ['--title', title, '--body-file', '-'] : ['--fill']),
    ],
    ...(title ? { input: body ?? '' } : {}),
  }),
  viewArgs: (url) => ['pr', 'view', url, '--json', 'url,number,state,baseRefName,headRefName,isDraft'],
  parseView: (json) => {
    const pr = json as { url: string; number: number; state: string; baseRefName: string; headRefName: string; isDraft?: boolean };
    return { url: pr.url, number: pr.number, state: stateOf(pr.state, pr.isDraft), base: pr.baseRefName, head: pr.headRefName };
  },
};

const glab: ForgeCli = {
  program: 'glab',
  install: 'install the GitLab CLI (https://gitlab.com/gitlab-org/cli)',
  login: 'glab auth login',
  createArgs: ({ title, body, base, head, draft }) => ({
    args: [
      'mr',
      'create',
      '--source-branch',
      head,
      ...(base ? ['--target-branch', base] : []),
      ...(draft ? ['--draft'] : []),
      ...(title ? ['--title', title, '--description', body ?? ''] : ['--fill']),
      '--yes',
    ],
  }),
  viewArgs: (url) => ['mr', 'view', url, '--output', 'json'],
  parseView: (json) => {
    const mr = json as { web_url: string; iid: number; state: string; target_branch: string; source_branch: string; draft?: boolean };
    return { url: mr.web_url, number: mr.iid, state: stateOf(mr.state, mr.draft), base: mr.target_branch, head: mr.source_branch };
  },
};

/** GitHub's OPEN/CLOSED/MERGED and GitLab's opened/closed/merged/locked, a draft told apart from an open one. */
function stateOf(state: string, draft: boolean | undefined): PullRequest['state'] {
  const s = state.toLowerCase();
  if (s === 'merged') return 'merged';
  if (s === 'closed' || s === 'locked') return 'closed';
  return draft ? 'draft' : 'open';
}

/** The CLI for a remote's URL, or a pull request's: `gitlab` in its host name picks glab. */
export function forgeForUrl(url: string): ForgeCli {
  const host =
    url
      .replace(/^[a-z+]+:\/\//i, '')
      .replace(/^[^@/]*@/, '')
      .split(/[/:]/)[0] ?? '';
  return /gitlab/i.test(host) ? glab : gh;
}

export async function forgeFor(cwd: string, remote: string): Promise<ForgeCli> {
  const url = await runGit(['remote', 'get-url', '--', remote], { cwd }).then(
    (out) => out.stdout.trim(),
    () => '',
  );
  return forgeForUrl(url);
}

/** Runs the forge CLI; a missing or logged-out one is `forge_cli_unavailable` saying what to install or run. */
export async function runForge(
  cli: ForgeCli,
  args: string[],
  options: { cwd: string; input?: string },
  limits: RemoteLimits,
): Promise<string> {
  const out = await runTimed(cli.program, args, { ...options, ...limits });
  if (out.missing) throw unavailable(cli, `${cli.program} is not on this host's PATH: ${cli.install}, then run \`${cli.login}\``);
  if (out.timedOut)
    throw new HostCommandError(
      'git_timeout',
      `${cli.program} ${args.slice(0, 2).join(' ')} did not end within ${Math.round(limits.timeoutMs / 1000)} s and was stopped`,
    );
  if (out.exitCode !== 0) {
    if (loggedOut(out)) throw unavailable(cli, `${cli.program} is not logged in on this host: run \`${cli.login}\` (${words(out)})`);
    throw new HostCommandError('forge_failed', `${cli.program} ${args.slice(0, 2).join(' ')} failed: ${words(out)}`);
  }
  return out.stdout;
}

/** Checked before anything is pushed for a pull request: a CLI that cannot open one is said first. */
export async function checkForgeReady(cli: ForgeCli, cwd: string, limits: RemoteLimits): Promise<void> {
  const out = await runTimed(cli.program, ['auth', 'status'], { cwd, ...limits });
  if (out.missing) throw unavailable(cli, `${cli.program} is not on this host's PATH: ${cli.install}, then run \`${cli.login}\``);
  if (out.exitCode !== 0) throw unavailable(cli, `${cli.program} is not logged in on this host: run \`${cli.login}\` (${words(out)})`);
}

const loggedOut = (out: TimedOutput) => /auth login|not logged in|authentication required|GH_TOKEN|401/i.test(out.stderr + out.stdout);
const words = (out: TimedOutput) => (out.stderr.trim() || out.stdout.trim() || `exit ${out.exitCode}`).slice(0, 2_000);
const unavailable = (cli: ForgeCli, message: string) => new HostCommandError('forge_cli_unavailable', message, { program: cli.program });
