import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installIndex } from '../../../../src/daemon/git/ship/levelIndex';
import { suiteTempDirs } from '../../../helpers/temp/suiteDirs';

describe('installIndex: the staged index put in as git puts an index, under its index.lock (issue 39)', () => {
  const tempDir = suiteTempDirs();

  async function files() {
    const dir = await tempDir('ats-install-index-');
    const indexFile = path.join(dir, 'index');
    writeFileSync(indexFile, 'the user’s index');
    return { dir, indexFile };
  }

  it('puts the staged file in place, keeping the time git wrote it, and leaves no lock', async () => {
    const { dir, indexFile } = await files();
    const staged = path.join(dir, 'staged');
    writeFileSync(staged, 'the index git commit left');
    const written = statSync(staged).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await installIndex(indexFile, staged)).to.equal(true);
    expect(readFileSync(indexFile, 'utf8')).to.equal('the index git commit left');
    expect(statSync(indexFile).mtimeMs).to.equal(written);
    expect(existsSync(`${indexFile}.lock`)).to.equal(false);
  });

  it('answers false and leaves a git command’s own index.lock alone', async () => {
    const { dir, indexFile } = await files();
    const staged = path.join(dir, 'staged');
    writeFileSync(staged, 'ours');
    writeFileSync(`${indexFile}.lock`, 'git’s');
    expect(await installIndex(indexFile, staged)).to.equal(false);
    expect(readFileSync(`${indexFile}.lock`, 'utf8')).to.equal('git’s');
    expect(readFileSync(indexFile, 'utf8')).to.equal('the user’s index');
  });

  it('copies the staged file when it is on another file system (no hard link there)', async function () {
    const { dir, indexFile } = await files();
    if (!existsSync('/dev/shm') || statSync('/dev/shm').dev === statSync(dir).dev) this.skip();
    const elsewhere = mkdtempSync('/dev/shm/ats-install-index-');
    try {
      const staged = path.join(elsewhere, 'staged');
      writeFileSync(staged, 'staged on tmpfs');
      expect(await installIndex(indexFile, staged)).to.equal(true);
      expect(readFileSync(indexFile, 'utf8')).to.equal('staged on tmpfs');
      expect(existsSync(`${indexFile}.lock`)).to.equal(false);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
