import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

describe('server: POST /files/read only inside registered roots', () => {
  let t: TestServer;
  let root: string;
  let outside: string;

  const read = (body: unknown) => t.api('/files/read', { body });
  async function expectProblem(response: Response, status: number, code: string) {
    expect(response.status).to.equal(status);
    expect(response.headers.get('content-type')).to.equal('application/problem+json');
    expect(((await response.json()) as any).code).to.equal(code);
  }

  before(async () => {
    t = await startTestServer();
    const base = await tempDir('ats-files-');
    root = path.join(base, 'project');
    outside = path.join(base, 'secret.txt');
    await mkdir(path.join(root, 'docs'), { recursive: true });
    await writeFile(path.join(root, 'docs', 'a.md'), 'hello\n');
    await writeFile(path.join(root, '.env'), 'KEY=1\n');
    await writeFile(outside, 'top secret\n');
    await symlink(outside, path.join(root, 'escape.txt'));
    await symlink(path.join(root, 'docs', 'a.md'), path.join(root, 'inner-link.md'));
    await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: root, hostId: t.server.hostId } } });
  });
  after(() => t.close());

  const tempDir = suiteTempDirs();

  it('reads a file inside a project root (spec 2.8: content, sizeBytes, sha256)', async () => {
    const result = await t.json('/files/read', { body: { hostId: t.server.hostId, path: path.join(root, 'docs', 'a.md') } });
    expect(result).to.deep.include({ content: 'hello\n', sizeBytes: 6, sha256: createHash('sha256').update('hello\n').digest('hex') });
  });

  it('reads dot files and symlinks that stay inside the root', async () => {
    expect((await t.json('/files/read', { body: { hostId: t.server.hostId, path: path.join(root, '.env') } })).content).to.equal('KEY=1\n');
    expect((await t.json('/files/read', { body: { hostId: t.server.hostId, path: path.join(root, 'inner-link.md') } })).content).to.equal(
      'hello\n',
    );
  });

  it('refuses .. segments with 403, even when they would land inside the root', async () => {
    await expectProblem(await read({ hostId: t.server.hostId, path: `${root}/docs/../docs/a.md` }), 403, 'path_outside_roots');
    await expectProblem(await read({ hostId: t.server.hostId, path: `${root}/../secret.txt` }), 403, 'path_outside_roots');
  });

  it('refuses an absolute path outside every root with 403', async () => {
    await expectProblem(await read({ hostId: t.server.hostId, path: outside }), 403, 'path_outside_roots');
    await expectProblem(await read({ hostId: t.server.hostId, path: '/etc/passwd' }), 403, 'path_outside_roots');
    await expectProblem(await read({ hostId: t.server.hostId, path: `${root}-sibling/x` }), 403, 'path_outside_roots');
  });

  it('refuses a symlink inside the root that resolves outside it with 403', async () => {
    await expectProblem(await read({ hostId: t.server.hostId, path: path.join(root, 'escape.txt') }), 403, 'path_outside_roots');
  });

  it('refuses NUL bytes and relative paths with 400 invalid_path', async () => {
    await expectProblem(await read({ hostId: t.server.hostId, path: `${root}/docs/a.md\0.png` }), 400, 'invalid_path');
    await expectProblem(await read({ hostId: t.server.hostId, path: 'docs/a.md' }), 400, 'invalid_path');
  });

  it('answers 404 for a missing file inside a root and for an unknown host, 409 for a directory', async () => {
    await expectProblem(await read({ hostId: t.server.hostId, path: path.join(root, 'nope.md') }), 404, 'not_found');
    await expectProblem(await read({ hostId: 'host_nope', path: path.join(root, 'docs', 'a.md') }), 404, 'host_not_found');
    await expectProblem(await read({ hostId: t.server.hostId, path: path.join(root, 'docs') }), 409, 'not_a_file');
  });

  it('rejects a body failing its schema with 400 and the issues', async () => {
    const response = await read({ hostId: t.server.hostId, file: 'x' });
    await expectProblem(response.clone(), 400, 'invalid_body');
  });
});
