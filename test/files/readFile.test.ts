import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_READ_CONFIG } from '../../src/files/fileReadConfig';
import { readFile } from '../../src/files/readFile';
import { createHostDispatcher, type HostHandlers } from '../../src/daemon/hostDispatcher';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('readFile (host.read_file)', () => {
  let root: string;
  beforeEach(() => {
    root = createTempTree({
      'hello.txt': 'héllo\n',
      '.env': 'SECRET=1',
      'empty.txt': '',
      dir: {},
      'link.txt': { symlink: 'hello.txt' },
      pipe: { fifo: true },
    });
  });
  afterEach(() => removeTempTree(root));

  it('returns UTF-8 text with its byte size and the sha256 of its bytes', async () => {
    expect(await readFile({ path: join(root, 'hello.txt') })).to.deep.equal({
      content: 'héllo\n',
      encoding: 'utf8',
      sizeBytes: 7,
      sha256: sha256('héllo\n'),
    });
  });

  it('serves dot files (no dot or name filter) and follows symlinks', async () => {
    expect(await readFile({ path: join(root, '.env') })).to.include({ content: 'SECRET=1' });
    expect(await readFile({ path: join(root, 'link.txt') })).to.include({ content: 'héllo\n' });
  });

  it('returns binary content as base64 of the exact bytes', async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x0a]);
    writeFileSync(join(root, 'image.png'), bytes);
    const result = await readFile({ path: join(root, 'image.png') });
    expect(result).to.deep.equal({ content: bytes.toString('base64'), encoding: 'base64', sizeBytes: 8, sha256: sha256(bytes) });
    expect(Buffer.from(result.content, 'base64')).to.deep.equal(bytes);
  });

  it('treats invalid UTF-8 as binary, and keeps a BOM in text', async () => {
    writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    expect(await readFile({ path: join(root, 'latin1.txt') })).to.include({ encoding: 'base64', content: 'Y2Fm6Q==' });
    writeFileSync(join(root, 'bom.txt'), '\ufeffx');
    expect(await readFile({ path: join(root, 'bom.txt') })).to.include({ encoding: 'utf8', content: '\ufeffx', sizeBytes: 4 });
  });

  it('reads an empty file', async () => {
    expect(await readFile({ path: join(root, 'empty.txt') })).to.include({ content: '', sizeBytes: 0, sha256: sha256('') });
  });

  it('refuses a directory and a FIFO at once with not_a_file (a FIFO is never opened)', async () => {
    expect(await readFile({ path: join(root, 'dir') }).catch((error) => error)).to.include({ code: 'not_a_file' });
    // If the FIFO were opened for reading this would block until the test times out.
    expect(await readFile({ path: join(root, 'pipe') }).catch((error) => error)).to.include({ code: 'not_a_file' });
  });

  it('answers not_found for a missing file or a path through a file', async () => {
    expect(await readFile({ path: join(root, 'missing.txt') }).catch((error) => error)).to.include({ code: 'not_found' });
    expect(await readFile({ path: join(root, 'hello.txt', 'x') }).catch((error) => error)).to.include({ code: 'not_found' });
  });

  it(`refuses files over ${FILE_READ_CONFIG.maxReadBytes} bytes with too_large`, async () => {
    const big = join(root, 'big.bin');
    writeFileSync(big, '');
    truncateSync(big, FILE_READ_CONFIG.maxReadBytes + 1);
    const error = await readFile({ path: big }).catch((caught) => caught);
    expect(error).to.include({ code: 'too_large' });
    expect(error.message).to.contain(String(FILE_READ_CONFIG.maxReadBytes));
  });

  it('reads a file of exactly the limit', async () => {
    const edge = join(root, 'edge.bin');
    writeFileSync(edge, '');
    truncateSync(edge, FILE_READ_CONFIG.maxReadBytes);
    expect(await readFile({ path: edge })).to.include({ sizeBytes: FILE_READ_CONFIG.maxReadBytes, encoding: 'base64' });
  });

  describe('procfs files, whose stat size is 0 whatever they hold', () => {
    const withProc = existsSync('/proc/self') ? it : it.skip;

    withProc('reads /proc/kallsyms to its end: the same bytes and sha256 as a plain read', async function () {
      let expected: Buffer;
      try {
        expected = readFileSync('/proc/kallsyms');
      } catch {
        return this.skip(); // kallsyms hidden from this container
      }
      // A 64 KiB buffer sized from the stat would come back short with a wrong sha256.
      expect(expected.length).to.be.greaterThan(64 * 1024);
      const result = await readFile({ path: '/proc/kallsyms' }).catch((error) => error);
      if (expected.length > FILE_READ_CONFIG.maxReadBytes) return expect(result).to.include({ code: 'too_large' });
      expect(result).to.include({ encoding: 'utf8', sizeBytes: expected.length, sha256: sha256(expected) });
    });

    withProc('reads /proc/self/smaps whole: it ends with the VmFlags line of its last mapping', async () => {
      const result = await readFile({ path: '/proc/self/smaps' });
      expect(result.encoding).to.equal('utf8');
      expect(result.sizeBytes).to.equal(Buffer.byteLength(result.content));
      expect(result.sha256).to.equal(sha256(result.content));
      expect(result.content.endsWith('\n')).to.equal(true);
      expect(result.content.trimEnd().split('\n').at(-1)).to.match(/^VmFlags:/);
    });
  });

  it("refuses a relative path or extra fields as invalid params at the daemon's gate", async () => {
    // The dispatcher checks the contract's schema (-32602, the field in the issue path); readFile trusts it.
    // The host link maps it to 400 invalid_params.
    const dispatch = createHostDispatcher({ 'host.read_file': (params) => readFile(params) } as Partial<HostHandlers> as HostHandlers);
    const refusal = async (params: unknown) =>
      ((await dispatch({ jsonrpc: '2.0', id: 1, method: 'host.read_file', params })) as { error?: { code: number; data?: unknown } }).error;
    const relative = await refusal({ path: 'hello.txt' });
    expect(relative?.code).to.equal(-32602);
    expect(JSON.stringify(relative?.data)).to.contain('path');
    const extra = await refusal({ path: join(root, 'hello.txt'), encoding: 'latin1' });
    expect(extra?.code).to.equal(-32602);
    expect(JSON.stringify(extra?.data)).to.contain('encoding');
  });
});
