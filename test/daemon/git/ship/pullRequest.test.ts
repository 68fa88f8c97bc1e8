import { expect } from 'chai';
import { realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';
import { git, makeForgeStandIn, makeShipRepo, pathWithoutForgeClis, shipDaemon } from './shipFixture';

const THREAD = 'thr_shippr0123456789';

describe('forge.pull_request_create / _view: pull requests through the host’s forge CLI (issue 39)', function () {
  this.timeout(60_000);
  const tempDir = suiteTempDirs();

  async function setup(program: 'gh' | 'glab' = 'gh', options: { loggedIn?: boolean } = {}) {
    const root = realpathSync(await tempDir('ats-ship-pr-'));
    const { checkout, origin } = makeShipRepo(root);
    const forge = makeForgeStandIn(root, program, options);
    writeFileSync(path.join(checkout, 'x.txt'), 'x\n');
    git(checkout, 'add', '-A');
    git(checkout, 'commit', '-q', '-m', 'Add x');
    return { root, checkout, origin, forge, daemon: shipDaemon(path.join(root, 'data'), forge.env) };
  }

  it('pushes the branch first, then runs gh pr create with title, body on stdin, base and --draft, and reads the PR back', async () => {
    const { checkout, origin, forge, daemon } = await setup();
    const answer = await daemon.call('forge.pull_request_create', {
      threadId: THREAD,
      path: checkout,
      title: 'Add x',
      body: 'Adds **x**.\n',
      base: 'main',
      draft: true,
    });
    const sha = git(checkout, 'rev-parse', 'HEAD');
    expect(git(origin, 'rev-parse', 'refs/heads/feature')).to.equal(sha);
    expect(answer.push).to.deep.equal({ remote: 'origin', branch: 'feature', sha, pushed: true });
    expect(answer.pullRequest).to.deep.equal({ url: forge.url, number: 7, state: 'open', base: 'main', head: 'feature' });
    expect(forge.calls()).to.deep.equal([
      { args: ['auth', 'status'], stdin: '' },
      {
        args: ['pr', 'create', '--head', 'feature', '--base', 'main', '--draft', '--title', 'Add x', '--body-file', '-'],
        stdin: 'Adds **x**.\n',
      },
      { args: ['pr', 'view', forge.url, '--json', 'url,number,state,baseRefName,headRefName,isDraft'], stdin: '' },
    ]);
    expect(daemon.rows.map((row) => row.method)).to.deep.equal(['git/pushed']);
  });

  it('does not push again when the remote has the tip, and lets gh fill title and body from the commits without a title', async () => {
    const { checkout, forge, daemon } = await setup();
    await daemon.call('git.push', { threadId: THREAD, path: checkout });
    const answer = await daemon.call('forge.pull_request_create', { threadId: THREAD, path: checkout });
    expect(answer.push).to.equal(null);
    expect(forge.calls()[1]!.args).to.deep.equal(['pr', 'create', '--head', 'feature', '--fill']);
  });

  it('uses glab for a GitLab remote', async () => {
    const { checkout, origin, forge, daemon } = await setup('glab');
    git(checkout, 'remote', 'set-url', 'origin', 'git@gitlab.com:acme/project.git');
    git(checkout, 'remote', 'set-url', '--push', 'origin', origin);
    const answer = await daemon.call('forge.pull_request_create', { threadId: THREAD, path: checkout, title: 'T', body: 'B' });
    expect(answer.pullRequest).to.deep.equal({ url: forge.url, number: 7, state: 'open', base: 'main', head: 'feature' });
    expect(forge.calls()[1]!.args).to.deep.equal([
      'mr',
      'create',
      '--source-branch',
      'feature',
      '--title',
      'T',
      '--description',
      'B',
      '--yes',
    ]);
  });

  it('answers forge_cli_unavailable saying what to install when there is no gh, and pushes nothing', async () => {
    const { root, checkout, origin } = await setup();
    const daemon = shipDaemon(path.join(root, 'data-nogh'), { PATH: pathWithoutForgeClis(root) });
    const error = await daemon.call('forge.pull_request_create', { threadId: THREAD, path: checkout, title: 'T' }).catch((e) => e);
    expect(error.hostCode).to.equal('forge_cli_unavailable');
    expect(error.message).to.match(/install the GitHub CLI .*gh auth login/);
    expect(() => git(origin, 'rev-parse', '--verify', '-q', 'refs/heads/feature')).to.throw();
  });

  it('answers forge_cli_unavailable saying to log in when gh is logged out', async () => {
    const { checkout, daemon } = await setup('gh', { loggedIn: false });
    const error = await daemon.call('forge.pull_request_create', { threadId: THREAD, path: checkout, title: 'T' }).catch((e) => e);
    expect(error.hostCode).to.equal('forge_cli_unavailable');
    expect(error.message).to.match(/run `gh auth login`/);
  });

  it('reads a pull request’s state now: open, merged, closed', async () => {
    const { checkout, forge, daemon } = await setup();
    const view = () => daemon.call('forge.pull_request_view', { threadId: THREAD, path: checkout, url: forge.url });
    expect((await view()).state).to.equal('open');
    forge.setState('MERGED');
    expect(await view()).to.deep.equal({ url: forge.url, number: 7, state: 'merged', base: 'main', head: 'feature' });
    forge.setState('CLOSED');
    expect((await view()).state).to.equal('closed');
  });
});
