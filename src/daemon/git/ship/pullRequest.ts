import type { GitPushResult, PullRequest } from '../../../protocol/hostShipCommands';
import type { z } from 'zod';
import type { PullRequestCreateParamsSchema, PullRequestViewParamsSchema } from '../../../protocol/hostShipCommands';
import { HostCommandError } from '../../../protocol/hostErrors';
import { checkForgeReady, forgeFor, forgeForUrl, runForge } from './forgeCli';
import { pushBranch, pushTarget } from './pushBranch';
import { runTimed } from './runTimed';
import type { RemoteLimits, ShipDeps } from './shipDeps';

type CreateParams = z.infer<typeof PullRequestCreateParamsSchema>;
type ViewParams = z.infer<typeof PullRequestViewParamsSchema>;

/**
 * `forge.pull_request_create`: the forge CLI is checked first (missing or logged out: nothing is pushed), the
 * branch is pushed when the remote does not have its tip, then the CLI opens the pull request and is asked its
 * state, so the thread keeps `{url, number, state, base, head}` as the forge says them.
 */
export async function createPullRequest(
  params: CreateParams,
  deps: ShipDeps,
): Promise<{ pullRequest: PullRequest; push: GitPushResult | null }> {
  const target = await pushTarget(params.path, params.remote);
  const cli = await forgeFor(params.path, target.remote);
  await checkForgeReady(cli, params.path, deps.remote);
  const push =
    (await remoteTip(params.path, target.remote, target.remoteBranch, deps.remote)) === target.sha ? null : await pushBranch(params, deps);
  const { args, input } = cli.createArgs({
    ...(params.title ? { title: params.title } : {}),
    ...(params.body !== undefined ? { body: params.body } : {}),
    ...(params.base ? { base: params.base } : {}),
    ...(params.draft ? { draft: true } : {}),
    head: target.remoteBranch,
  });
  const printed = await runForge(cli, args, { cwd: params.path, ...(input === undefined ? {} : { input }) }, deps.remote);
  const url = printed.match(/https?:\/\/\S+/g)?.pop();
  if (!url) throw new HostCommandError('forge_failed', `${cli.program} printed no pull request URL: ${printed.slice(0, 500)}`);
  return { pullRequest: await viewPullRequest({ threadId: params.threadId, path: params.path, url }, deps), push };
}

/** `forge.pull_request_view`: one pull request's state now, from the CLI of the remote it belongs to. */
export async function viewPullRequest(params: ViewParams, deps: Pick<ShipDeps, 'remote'>): Promise<PullRequest> {
  const cli = forgeForUrl(params.url);
  const printed = await runForge(cli, cli.viewArgs(params.url), { cwd: params.path }, deps.remote);
  try {
    return cli.parseView(JSON.parse(printed));
  } catch (error) {
    throw new HostCommandError(
      'forge_failed',
      `${cli.program} answered no pull request JSON (${(error as Error).message}): ${printed.slice(0, 500)}`,
    );
  }
}

/** The commit a remote branch is at now (`git ls-remote`), or null when it has no such branch. */
export async function remoteTip(cwd: string, remote: string, branch: string, limits: RemoteLimits): Promise<string | null> {
  const out = await runTimed('git', ['ls-remote', '--', remote, `refs/heads/${branch}`], { cwd, ...limits });
  if (out.exitCode !== 0) return null;
  return out.stdout.split('\t')[0]?.trim() || null;
}
