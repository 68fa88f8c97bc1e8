import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { DataDirLockedError, LOCK_FILE_NAME, lockDataDir } from '../../src/store/dataDirLock';
import { suiteTempDirs } from '../helpers/temp/suiteDirs';

/** What the lock records of a process: boot id and start time in clock ticks (Linux /proc). */
async function startIdentity(pid: number): Promise<string> {
  const bootId = (await fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  return `${bootId}:${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}`;
}

describe('lockDataDir: a LOCK whose pid now belongs to another process', function () {
  let dir: string;
  let other: ChildProcess;

  before(function () {
    if (!existsSync('/proc/self/stat')) this.skip();
    // A live process that is not the lock's holder: what a reused pid looks like.
    other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  });
  beforeEach(async () => (dir = await tempDir('ats-lock-pid-')));
  after(() => other?.kill('SIGKILL'));

  const tempDir = suiteTempDirs();

  const writeLock = (content: string) => fs.writeFile(path.join(dir, LOCK_FILE_NAME), content);

  it('takes over a LOCK naming a live pid whose process started at another time (the pid was reused)', async () => {
    const [bootId] = (await startIdentity(other.pid!)).split(':');
    await writeLock(`${other.pid} crashed-holder ${bootId}:1`);
    const lock = await lockDataDir(dir);
    expect(await fs.readFile(path.join(dir, LOCK_FILE_NAME), 'utf8')).to.match(new RegExp(`^${process.pid} `));
    await lock.release();
  });

  it('takes over a LOCK from an earlier boot whose pid is alive now', async () => {
    const [, ticks] = (await startIdentity(other.pid!)).split(':');
    await writeLock(`${other.pid} crashed-holder 00000000-0000-0000-0000-000000000000:${ticks}`);
    const lock = await lockDataDir(dir);
    await lock.release();
  });

  it('refuses a LOCK whose pid and start time are those of a live process, naming it', async () => {
    await writeLock(`${other.pid} live-holder ${await startIdentity(other.pid!)}`);
    const refused = await lockDataDir(dir).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(DataDirLockedError);
    expect((refused as DataDirLockedError).pid).to.equal(other.pid);
  });

  it('refuses a LOCK of the older form (pid and nonce only) while that pid is alive', async () => {
    await writeLock(`${other.pid} older-version`);
    expect(await lockDataDir(dir).catch((error: unknown) => error)).to.be.instanceOf(DataDirLockedError);
  });

  it('records its own start time, so a later process with its pid is not taken for it', async () => {
    const lock = await lockDataDir(dir);
    const content = await fs.readFile(path.join(dir, LOCK_FILE_NAME), 'utf8');
    expect(content.split(' ')[2]).to.equal(await startIdentity(process.pid));
    await lock.release();
  });
});
