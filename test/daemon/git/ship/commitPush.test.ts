import { expect } from 'chai';
import { existsSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gitOutput } from '../../../helpers/git/gitRepo';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';
import { git, makeShipRepo, shipDaemon } from './shipFixture';

const THREAD = 'thr_ship0123456789ab';

describe('git.commit and git.push: a thread’s work committed and pushed with the real git CLI (issue 39)', function () {
  this.timeout(60_000);
  const servers: http.Server[] = [];
  after(() => servers.forEach((server) => server.close()));
  const tempDir = suiteTempDirs();

  async function setup() {
    const root = realpathSync(await tempDir('ats-ship-'));
    const { checkout, origin } = makeShipRepo(root);
    return { root, checkout, origin, daemon: shipDaemon(path.join(root, 'data')) };
  }

  it('commits every change (modified, new, deleted) on the branch as the user, leaves the index level and writes git/committed', async () => {
    const { root, checkout, daemon } = await setup();
    writeFileSync(path.join(checkout, 'src/app.ts'), 'export const app = 2;\n');
    writeFileSync(path.join(checkout, 'NEW.md'), 'new\n');
    rmSync(path.join(checkout, 'README.md'));
    const result = await daemon.call('git.commit', { threadId: THREAD, path: checkout, message: 'Ship it\n\nWith a body.' });
    expect(result.sha).to.equal(git(checkout, 'rev-parse', 'refs/heads/feature'));
    expect(result).to.deep.include({ message: 'Ship it\n\nWith a body.', branch: 'feature' });
    expect(result.files).to.have.members(['NEW.md', 'README.md', 'src/app.ts']);
    expect(git(checkout, 'log', '-1', '--format=%an <%ae>|%B')).to.equal('Ada Lovelace <ada@example.com>|Ship it\n\nWith a body.');
    expect(git(checkout, 'status', '--porcelain')).to.equal('');
    expect(git(checkout, 'rev-parse', 'HEAD~1')).to.equal(git(checkout, 'rev-parse', 'main'));
    expect(daemon.rows).to.deep.equal([
      {
        jsonrpc: '2.0',
        method: 'git/committed',
        params: { threadId: THREAD, sha: result.sha, message: result.message, files: result.files, branch: 'feature' },
      },
    ]);
    expect(readdirSync(path.join(root, 'data', 'ship'))).to.deep.equal([]);
    expect(existsSync(path.join(checkout, '.git', 'index.lock'))).to.equal(false);
  });

  it('commits as the service when no git config names the user, and keeps the half it does name', async () => {
    const { root, checkout, daemon } = await setup();
    git(checkout, 'config', '--unset', 'user.name');
    git(checkout, 'config', '--unset', 'user.email');
    const emptyConfig = path.join(root, 'empty-gitconfig');
    writeFileSync(emptyConfig, '');
    const saved = { GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM: process.env.GIT_CONFIG_NOSYSTEM };
    Object.assign(process.env, { GIT_CONFIG_GLOBAL: emptyConfig, GIT_CONFIG_NOSYSTEM: '1' });
    try {
      writeFileSync(path.join(checkout, 'one.txt'), '1\n');
      await daemon.call('git.commit', { threadId: THREAD, path: checkout, message: 'by nobody' });
      expect(git(checkout, 'log', '-1', '--format=%an <%ae>|%cn <%ce>')).to.equal(
        'agent-thread-service <ats@localhost>|agent-thread-service <ats@localhost>',
      );
      git(checkout, 'config', 'user.name', 'Ada Lovelace');
      writeFileSync(path.join(checkout, 'two.txt'), '2\n');
      await daemon.call('git.commit', { threadId: THREAD, path: checkout, message: 'by Ada' });
      expect(git(checkout, 'log', '-1', '--format=%an <%ae>')).to.equal('Ada Lovelace <ats@localhost>');
      expect(git(checkout, 'status', '--porcelain')).to.equal('');
    } finally {
      for (const [key, value] of Object.entries(saved)) value === undefined ? delete process.env[key] : (process.env[key] = value);
    }
  });

  it('commits only the paths named; other work stays as it was, staged or not', async () => {
    const { checkout, daemon } = await setup();
    writeFileSync(path.join(checkout, 'src/app.ts'), 'export const app = 3;\n');
    writeFileSync(path.join(checkout, 'staged.txt'), 'staged\n');
    git(checkout, 'add', 'staged.txt');
    writeFileSync(path.join(checkout, 'README.md'), '# changed\n');
    const result = await daemon.call('git.commit', { threadId: THREAD, path: checkout, message: 'Only the app', paths: ['src/app.ts'] });
    expect(result.files).to.deep.equal(['src/app.ts']);
    expect(gitOutput(checkout, 'status', '--porcelain').split('\n').filter(Boolean)).to.have.members([' M README.md', 'A  staged.txt']);
  });

  it('answers nothing_to_commit for a clean folder, with no row and no journal left', async () => {
    const { root, checkout, daemon } = await setup();
    const head = git(checkout, 'rev-parse', 'HEAD');
    const error = await daemon.call('git.commit', { threadId: THREAD, path: checkout, message: 'nothing' }).catch((e) => e);
    expect(error.hostCode).to.equal('nothing_to_commit');
    expect(git(checkout, 'rev-parse', 'HEAD')).to.equal(head);
    expect(daemon.rows).to.deep.equal([]);
    expect(readdirSync(path.join(root, 'data', 'ship'))).to.deep.equal([]);
  });

  it('pushes the branch to origin with -u (upstream set, git/pushed), and a second push sends nothing', async () => {
    const { checkout, origin, daemon } = await setup();
    writeFileSync(path.join(checkout, 'x.txt'), 'x\n');
    const { sha } = await daemon.call('git.commit', { threadId: THREAD, path: checkout, message: 'x' });
    const pushed = await daemon.call('git.push', { threadId: THREAD, path: checkout });
    expect(pushed).to.deep.equal({ remote: 'origin', branch: 'feature', sha, pushed: true });
    expect(git(origin, 'rev-parse', 'refs/heads/feature')).to.equal(sha);
    expect(git(checkout, 'rev-parse', '--abbrev-ref', 'feature@{upstream}')).to.equal('origin/feature');
    expect(daemon.rows.at(-1)).to.deep.equal({
      jsonrpc: '2.0',
      method: 'git/pushed',
      params: { threadId: THREAD, remote: 'origin', branch: 'feature', sha },
    });
    expect(await daemon.call('git.push', { threadId: THREAD, path: checkout })).to.include({ pushed: false });
  });

  it('answers push_rejected with git’s words after the remote branch was force-updated elsewhere', async () => {
    const { root, checkout, origin, daemon } = await setup();
    writeFileSync(path.join(checkout, 'x.txt'), 'x\n');
    await daemon.call('git.commit', { threadId: THREAD, path: checkout, message: 'x' });
    await daemon.call('git.push', { threadId: THREAD, path: checkout });
    const other = path.join(root, 'other');
    git(root, 'clone', '-q', '-b', 'feature', origin, other);
    git(other, 'reset', '-q', '--hard', 'HEAD~1');
    writeFileSync(path.join(other, 'theirs.txt'), 'theirs\n');
    git(other, 'add', '-A');
    git(other, 'commit', '-q', '-m', 'theirs');
    git(other, 'push', '-q', '--force', 'origin', 'feature');
    const theirs = git(other, 'rev-parse', 'HEAD');
    writeFileSync(path.join(checkout, 'y.txt'), 'y\n');
    await daemon.call('git.commit', { threadId: THREAD, path: checkout, message: 'y' });
    const error = await daemon.call('git.push', { threadId: THREAD, path: checkout }).catch((e) => e);
    expect(error.hostCode).to.equal('push_rejected');
    expect(error.message).to.match(/rejected/);
    expect(git(origin, 'rev-parse', 'refs/heads/feature')).to.equal(theirs);
    expect(daemon.rows.map((row) => row.method)).to.deep.equal(['git/committed', 'git/pushed', 'git/committed']);
  });

  it('answers no_remote for a repository without one, and for a remote name it does not have', async () => {
    const { checkout, daemon } = await setup();
    expect((await daemon.call('git.push', { threadId: THREAD, path: checkout, remote: 'upstream' }).catch((e) => e)).hostCode).to.equal(
      'no_remote',
    );
    git(checkout, 'remote', 'remove', 'origin');
    const error = await daemon.call('git.push', { threadId: THREAD, path: checkout }).catch((e) => e);
    expect(error.hostCode).to.equal('no_remote');
    expect(error.message).to.match(/has no remote/);
  });

  it('answers auth_failed at once when the remote wants credentials (no prompt)', async () => {
    const { checkout, daemon } = await setup();
    const port = await listen((_req, res) => res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' }).end());
    git(checkout, 'remote', 'set-url', 'origin', `http://127.0.0.1:${port}/acme/project.git`);
    const error = await daemon.call('git.push', { threadId: THREAD, path: checkout }).catch((e) => e);
    expect(error.hostCode).to.equal('auth_failed');
  });

  it('answers git_timeout when the remote never answers, instead of hanging', async () => {
    const { root, checkout } = await setup();
    const daemon = shipDaemon(path.join(root, 'data2'), undefined, 1_500);
    const port = await listen(() => undefined);
    git(checkout, 'remote', 'set-url', 'origin', `http://127.0.0.1:${port}/acme/project.git`);
    const error = await daemon.call('git.push', { threadId: THREAD, path: checkout }).catch((e) => e);
    expect(error.hostCode).to.equal('git_timeout');
  });

  it('answers no_branch on a detached HEAD', async () => {
    const { checkout, daemon } = await setup();
    git(checkout, 'switch', '-q', '--detach');
    expect((await daemon.call('git.push', { threadId: THREAD, path: checkout }).catch((e) => e)).hostCode).to.equal('no_branch');
  });

  function listen(handler: http.RequestListener): Promise<number> {
    const server = http.createServer(handler);
    servers.push(server);
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  }
});
