import { expect } from 'chai';
import path from 'node:path';
import { createHostDispatcher } from '../../src/daemon/hostDispatcher';
import { createHostFileHandlers } from '../../src/daemon/hostFileHandlers';
import { localHostFiles } from '../../src/daemon/localHostFiles';
import type { HostHandlers } from '../../src/daemon/hostDispatcher';
import { MAX_NAME_BYTES, MAX_PATH_BYTES } from '../../src/protocol/hostFiles';
import { startTestServer, type TestServer } from '../helpers/server/harness';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

const STACK = /\n\s+at |\.ts:\d+/;

describe('paths over the length a host can name: 400 invalid_params, never a 502 with a stack', () => {
  let t: TestServer;
  let root: string;
  const logs: string[] = [];
  const longName = 'n'.repeat(300);
  const hugePath = '/' + 'a'.repeat(64 * 1024);

  before(async () => {
    root = await tempDir('ats-long-paths-');
    t = await startTestServer({ log: (message) => logs.push(message) });
    await t.json('/projects', { body: { name: 'p', source: { type: 'local_path', path: root, hostId: t.server.hostId } } });
  });
  after(() => t.close());

  const tempDir = suiteTempDirs();

  async function expectInvalidParams(response: Response): Promise<void> {
    const text = await response.text();
    expect(response.status, text).to.equal(400);
    expect(JSON.parse(text).code).to.equal('invalid_params');
    expect(text).not.to.match(STACK);
  }

  const cases: [string, () => string][] = [
    ['a 64 KiB path', () => hugePath],
    ['a 64 KiB path inside a root', () => path.join(root, 'a'.repeat(64 * 1024))],
    ['a 300-character name inside a root', () => path.join(root, longName)],
    ['a 300-character name deeper inside a root', () => path.join(root, 'sub', longName, 'file.txt')],
  ];

  for (const [label, pathOf] of cases) {
    it(`POST /files/read with ${label}`, async () => {
      await expectInvalidParams(await t.api('/files/read', { body: { hostId: t.server.hostId, path: pathOf() } }));
    });

    it(`POST /projects and POST /environments with ${label}`, async () => {
      await expectInvalidParams(
        await t.api('/projects', { body: { name: 'long', source: { type: 'local_path', path: pathOf(), hostId: t.server.hostId } } }),
      );
      await expectInvalidParams(await t.api('/environments', { body: { hostId: t.server.hostId, path: pathOf() } }));
    });
  }

  it('logs no stack for any of them', () => {
    expect(logs.filter((line) => STACK.test(line))).to.deep.equal([]);
  });

  it('takes a path of exactly MAX_PATH_BYTES with names of MAX_NAME_BYTES (the limits are inclusive)', async () => {
    const name = 'x'.repeat(MAX_NAME_BYTES);
    let longest = root;
    while (Buffer.byteLength(longest) + 1 + MAX_NAME_BYTES <= MAX_PATH_BYTES) longest += '/' + name;
    longest += '/' + 'y'.repeat(MAX_PATH_BYTES - Buffer.byteLength(longest) - 1);
    expect(Buffer.byteLength(longest)).to.equal(MAX_PATH_BYTES);
    const response = await t.api('/files/read', { body: { hostId: t.server.hostId, path: longest } });
    expect(response.status).to.equal(404);
  });
});

describe('host daemon: an over-long path is invalid_params from the contract itself (remote servers included)', () => {
  const logs: string[] = [];
  const dispatch = createHostDispatcher(createHostFileHandlers(localHostFiles()) as HostHandlers, (message) => logs.push(message));

  const methods: [string, Record<string, unknown>][] = [
    ['host.resolve_path', { path: '/' + 'n'.repeat(300) }],
    ['host.read_file', { path: '/tmp/' + 'n'.repeat(300) }],
    ['host.browse_directory', { path: '/' + 'a'.repeat(64 * 1024) }],
    ['host.list_paths', { path: '/' + 'n'.repeat(300) }],
    ['host.read_file_relative', { rootPath: '/tmp', path: 'n'.repeat(300), dotfiles: 'deny' }],
  ];
  for (const [method, params] of methods) {
    it(`${method} answers -32602 invalid params, and nothing is logged`, async () => {
      const answer = (await dispatch({ jsonrpc: '2.0', id: 1, method, params })) as { error?: { code: number; message: string } };
      expect(answer.error?.code, JSON.stringify(answer)).to.equal(-32602);
      expect(answer.error?.message).to.contain('invalid params');
      expect(logs).to.deep.equal([]);
    });
  }
});
