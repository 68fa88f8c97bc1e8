import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE_NAME, lockDataDir, takeoverClaimPath } from '../../src/store/dataDirLock';
import { makeTempDir } from '../helpers/temp/dir';

const REPO = path.resolve(__dirname, '..', '..');

/**
 * Another process, loaded and waiting: `go()` makes it try to lock `dataDir`; it answers `locked` or
 * `refused <pid>`, and holds a lock it got until `end()`. Several can be told to go in the same instant.
 */
async function lockerProcess(dataDir: string) {
  const script = `
    const { lockDataDir } = require('./src/store/dataDirLock');
    console.log('ready');
    process.stdin.once('data', () => lockDataDir(${JSON.stringify(dataDir)}).then(
      (lock) => { console.log('locked'); process.stdin.once('end', () => lock.release()); },
      (error) => { console.log(error.code === 'data_dir_locked' ? 'refused ' + error.pid : 'error ' + error.message); process.exit(0); },
    ));`;
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: REPO,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    waiters.splice(0).forEach((wake) => wake());
  });
  const line = async (index: number): Promise<string> => {
    while (lines.length <= index) await new Promise<void>((wake) => waiters.push(wake));
    return lines[index]!;
  };
  const closed = new Promise((resolve) => child.on('close', resolve));
  expect(await line(0)).to.equal('ready');
  return {
    go: () => child.stdin.write('go\n'),
    outcome: () => line(1),
    end: async () => {
      child.stdin.end();
      await closed;
    },
  };
}

/** One locker: go, outcome, end. */
async function lockInChild(dataDir: string): Promise<string> {
  const locker = await lockerProcess(dataDir);
  locker.go();
  const outcome = await locker.outcome();
  await locker.end();
  return outcome;
}

describe('lockDataDir: one process per data dir', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => (temp = await makeTempDir('ats-lock-')));
  afterEach(() => temp.remove());

  it('refuses another process while the lock is held, naming the holder', async () => {
    const lock = await lockDataDir(temp.dir);
    expect(await lockInChild(temp.dir)).to.equal(`refused ${process.pid}`);
    await lock.release();
    expect(await lockInChild(temp.dir)).to.equal('locked');
  });

  it('takes over a lock naming its own pid that it did not take (a container restarts its service as the same pid)', async () => {
    await fs.writeFile(path.join(temp.dir, LOCK_FILE_NAME), `${process.pid} an-earlier-life`);
    const lock = await lockDataDir(temp.dir);
    expect(await fs.readFile(path.join(temp.dir, LOCK_FILE_NAME), 'utf8')).to.not.contain('an-earlier-life');
    const again = await lockDataDir(temp.dir).catch((error: unknown) => error);
    expect(again).to.be.instanceOf(DataDirLockedError);
    await lock.release();
  });

  it('refuses the same data dir reached through a symlink while it holds it', async () => {
    const lock = await lockDataDir(temp.dir);
    const alias = `${temp.dir}-alias`;
    await fs.symlink(temp.dir, alias);
    try {
      expect(await lockDataDir(alias).catch((error: unknown) => error)).to.be.instanceOf(DataDirLockedError);
    } finally {
      await fs.rm(alias);
      await lock.release();
    }
  });

  it('is not blocked by a takeover claim an earlier life of this pid left behind, and clears such leftovers', async () => {
    const lockPath = path.join(await fs.realpath(temp.dir), LOCK_FILE_NAME);
    const stale = '999999999 crashed';
    await fs.writeFile(lockPath, stale);
    await fs.writeFile(takeoverClaimPath(lockPath, stale), `${process.pid} an-earlier-life`);
    await fs.writeFile(`${lockPath}.draft-left`, '999999999 crashed-while-writing');
    const lock = await lockDataDir(temp.dir);
    expect(await fs.readdir(temp.dir)).to.deep.equal([LOCK_FILE_NAME]);
    await lock.release();
  });

  it('lets exactly one of several processes take over the same stale lock at once', async function () {
    // 20 ts-node processes in 5 rounds: on the shared 2-core machine one start alone took 3 s (load 36).
    this.timeout(90_000);
    const lockers = await Promise.all(Array.from({ length: 4 }, () => lockerProcess(temp.dir)));
    for (let round = 0; round < 5; round += 1) {
      await fs.writeFile(path.join(temp.dir, LOCK_FILE_NAME), '999999999 crashed');
      const racing = round === 0 ? lockers : await Promise.all(lockers.map(() => lockerProcess(temp.dir)));
      racing.forEach((locker) => locker.go());
      const outcomes = await Promise.all(racing.map((locker) => locker.outcome()));
      expect(
        outcomes.filter((outcome) => outcome === 'locked'),
        outcomes.join(', '),
      ).to.have.lengthOf(1);
      expect(
        outcomes.filter((outcome) => outcome.startsWith('refused ')),
        outcomes.join(', '),
      ).to.have.lengthOf(3);
      await Promise.all(racing.map((locker) => locker.end()));
      expect(await fs.readdir(temp.dir)).to.deep.equal([]); // the lock released, nothing moved aside left behind
    }
  });
});
