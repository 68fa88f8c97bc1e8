import { expect } from 'chai';
import { join } from 'node:path';
import { HOST_ERROR_HTTP_STATUS, type HostCommandError } from '../../src/protocol/hostErrors';
import { readFileRelative } from '../../src/files/readFileRelative';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

describe('readFileRelative (host.read_file_relative)', () => {
  let root: string;
  let outside: string;
  beforeEach(() => {
    outside = createTempTree({ 'secret.txt': 'outside' });
    root = createTempTree({
      skills: { 'SKILL.md': '# skill', '.hidden.md': 'hidden', '.private': { 'notes.md': 'private' } },
      'link-out.txt': { symlink: join(outside, 'secret.txt') },
      'link-into-dot.md': { symlink: 'skills/.private/notes.md' },
      pipe: { fifo: true },
    });
  });
  afterEach(() => {
    removeTempTree(root);
    removeTempTree(outside);
  });

  const read = (path: string, dotfiles: 'allow' | 'deny' = 'deny') => readFileRelative({ rootPath: root, path, dotfiles });
  const failure = (path: string, dotfiles: 'allow' | 'deny' = 'deny') =>
    read(path, dotfiles).then(
      () => null,
      (error) => error,
    );

  it('reads a file below the root', async () => {
    expect(await read('skills/SKILL.md')).to.include({ content: '# skill', encoding: 'utf8', sizeBytes: 7 });
  });

  it('with dotfiles deny, a dot path answers exactly like a missing file (skill-file-not-found)', async () => {
    const missing = await failure('skills/missing.md');
    expect(missing).to.include({ code: 'not_found', message: 'file not found: skills/missing.md' });
    // Everything but the path in the message: what the server turns into a 404 problem body.
    const shape = (error: HostCommandError) => ({
      name: error.name,
      code: error.code,
      details: error.details,
      status: HOST_ERROR_HTTP_STATUS[error.code as keyof typeof HOST_ERROR_HTTP_STATUS],
    });
    expect(shape(missing)).to.deep.equal({ name: 'HostCommandError', code: 'not_found', details: undefined, status: 404 });
    for (const path of ['skills/.hidden.md', 'skills/.private/notes.md', 'link-into-dot.md']) {
      const denied = await failure(path);
      expect({ code: denied.code, message: denied.message }).to.deep.equal({ code: 'not_found', message: `file not found: ${path}` });
      expect(shape(denied)).to.deep.equal(shape(missing));
    }
  });

  it('with dotfiles allow, dot paths are read', async () => {
    expect(await read('skills/.hidden.md', 'allow')).to.include({ content: 'hidden' });
    expect(await read('skills/.private/notes.md', 'allow')).to.include({ content: 'private' });
  });

  it('never reads outside the root: .. and symlinks leading out are forbidden', async () => {
    expect(await failure('../etc/passwd', 'allow')).to.include({ code: 'forbidden' });
    expect(await failure('skills/../../x', 'allow')).to.include({ code: 'forbidden' });
    expect(await failure('link-out.txt', 'allow')).to.include({ code: 'forbidden' });
  });

  it('refuses an absolute path with invalid_params and a directory with not_a_file', async () => {
    expect(await failure('/etc/passwd')).to.include({ code: 'invalid_params' });
    expect(await failure('skills')).to.include({ code: 'not_a_file' });
  });

  it('refuses a FIFO at once with not_a_file (opening it for reading would block)', async () => {
    expect(await failure('pipe', 'allow')).to.include({ code: 'not_a_file' });
  });
});
