import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { crashRandom } from '../../../helpers/crash/harness';
import { git, makeShipRepo } from './shipFixture';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');
const THREAD = 'thr_shipkill01234567';
/** Files a commit round writes: enough that a kill lands inside the commit's git steps, not only before them. */
const FILES_PER_COMMIT = 150;

interface Child {
  ready: Promise<void>;
  request(method: string, params: unknown): Promise<unknown>;
  kill(): Promise<void>;
}

function startChild(dataDir: string, rowsFile: string, cache: string): Child {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', 'test/daemon/git/ship/shipWingChild.ts', dataDir, rowsFile],
    {
      cwd: REPO,
      env: { ...process.env, CRASH_TRANSPILE_CACHE: cache },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  let out = '';
  const waiting = new Map<number, (line: string) => void>();
  let onReady = () => {};
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    out += chunk;
    for (let end = out.indexOf('\n'); end >= 0; end = out.indexOf('\n')) {
      const line = out.slice(0, end);
      out = out.slice(end + 1);
      if (line === 'ready') onReady();
      const match = /^(?:ack|fail) (\d+) /.exec(line);
      if (match) waiting.get(Number(match[1]))?.(line);
    }
  });
  let id = 0;
  return {
    ready: Promise.race([ready, closed.then(() => Promise.reject(new Error(`the ship child ended before ready: ${stderr}`)))]),
    request: (method, params) =>
      new Promise((resolve) => {
        waiting.set(++id, resolve);
        child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
      }),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await closed;
    },
  };
}

export interface ShipKillResult {
  rounds: number;
  killedMidCommand: number;
  happened: { commit: number; push: number };
  notHappened: { commit: number; push: number };
  /** `git/interrupted` rows the recoveries wrote (a kill before the journal's first write leaves none: nothing had begun). */
  interruptedRows: number;
  seed: string;
}

/**
 * The kill test of commit and push (issue 39): each round starts the wing in a child (its recovery settles
 * what the last kill cut short), checks that the last command happened once or not at all and that the
 * thread's rows say which, then sends a commit (of fresh changes) or a push and SIGKILLs the child at a random
 * moment of it. Always: no `index.lock` left, the index level with the branch after a commit (`git diff
 * --cached` empty) and every change still on disk after one that did not happen, `git fsck` clean.
 */
export async function runShipKillRounds(options: {
  root: string;
  rounds: number;
  maxDelayMs: number;
  seed?: number;
}): Promise<ShipKillResult> {
  const random = crashRandom(options.seed);
  const { checkout, origin } = makeShipRepo(options.root);
  const dataDir = path.join(options.root, 'data');
  const rowsFile = path.join(options.root, 'rows.jsonl');
  const cache = path.join(options.root, 'transpiled');
  const result: ShipKillResult = {
    rounds: options.rounds,
    killedMidCommand: 0,
    happened: { commit: 0, push: 0 },
    notHappened: { commit: 0, push: 0 },
    interruptedRows: 0,
    seed: random.describe(),
  };
  let last: LastCommand | null = null;
  const took = new Map<'commit' | 'push', number>();
  const rows = (): { method: string; params: any }[] =>
    existsSync(rowsFile)
      ? readFileSync(rowsFile, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line))
      : [];
  const remoteTip = () => {
    try {
      return git(origin, 'rev-parse', '--verify', '-q', 'refs/heads/feature');
    } catch {
      return null;
    }
  };

  const check = (round: number) => {
    const context = `round ${round} (${random.describe()})`;
    expect(existsSync(path.join(checkout, '.git', 'index.lock')), `${context}: index.lock left`).to.equal(false);
    expect(git(checkout, 'fsck', '--no-progress', '--no-dangling'), context).to.equal('');
    if (!last) return;
    if (last.action === 'commit') {
      const commits = git(checkout, 'log', '--format=%s', 'main..feature')
        .split('\n')
        .filter((s) => s === last!.message);
      expect(commits.length, `${context}: commits of ${last.message}`).to.be.at.most(1);
      const said = rows().filter((row) => row.method === 'git/committed' && row.params.message === last!.message);
      if (commits.length === 1) {
        result.happened.commit += 1;
        expect(said.length, `${context}: the thread says the commit happened`).to.be.at.least(1);
        expect(said[0]!.params.sha, context).to.equal(git(checkout, 'log', '-1', '--format=%H', `--grep=^${last.message}$`));
        expect(git(checkout, 'diff', '--cached', '--name-only'), `${context}: index level with the commit`).to.equal('');
      } else {
        result.notHappened.commit += 1;
        expect(said, `${context}: no committed row for a commit that did not happen`).to.deep.equal([]);
        for (const file of last.files) expect(existsSync(path.join(checkout, file)), `${context}: ${file} kept`).to.equal(true);
      }
    } else {
      const tip = remoteTip();
      expect([last.remoteBefore, last.local], context).to.include(tip);
      const said = rows().filter((row) => row.method === 'git/pushed' && row.params.sha === last!.local);
      if (tip === last.local && last.remoteBefore !== last.local) {
        result.happened.push += 1;
        expect(said.length, `${context}: the thread says the push happened`).to.be.at.least(1);
      } else if (tip !== last.local) {
        result.notHappened.push += 1;
        expect(said, `${context}: no pushed row for a push that did not happen`).to.deep.equal([]);
      }
    }
  };

  for (let round = 0; round <= options.rounds; round++) {
    const child = startChild(dataDir, rowsFile, cache);
    try {
      await child.ready;
      check(round);
      if (round === options.rounds) break;
      const dirty = git(checkout, 'status', '--porcelain') !== '';
      last =
        dirty || random.next() < 0.5
          ? newChanges(checkout, round)
          : { action: 'push', message: '', files: [], remoteBefore: remoteTip(), local: git(checkout, 'rev-parse', 'HEAD') };
      const answer =
        last.action === 'commit'
          ? child.request('git.commit', { threadId: THREAD, path: checkout, message: last.message })
          : child.request('git.push', { threadId: THREAD, path: checkout });
      // Aimed within how long this command took here when it last ran to its end (a bit past), else maxDelayMs.
      const started = Date.now();
      const action = last.action;
      const answered = answer.then(() => took.set(action, Date.now() - started)).then(() => true);
      const window = took.has(action) ? 1.2 * took.get(action)! : options.maxDelayMs;
      const delay = new Promise<false>((resolve) => setTimeout(() => resolve(false), random.between(0, window)));
      if (!(await Promise.race([answered, delay]))) result.killedMidCommand += 1;
    } finally {
      await child.kill();
    }
  }
  result.interruptedRows = rows().filter((row) => row.method === 'git/interrupted').length;
  return result;
}

interface LastCommand {
  action: 'commit' | 'push';
  message: string;
  files: string[];
  remoteBefore: string | null;
  local: string;
}

/** FILES_PER_COMMIT new files on disk, and the commit of them about to be asked for. */
function newChanges(checkout: string, round: number): LastCommand {
  const files = Array.from({ length: FILES_PER_COMMIT }, (_, i) => `work/r${round}/f${i}.txt`);
  mkdirSync(path.join(checkout, 'work', `r${round}`), { recursive: true });
  for (const file of files) writeFileSync(path.join(checkout, file), `round ${round} file ${file}\n`);
  return { action: 'commit', message: `round ${round}`, files, remoteBefore: null, local: '' };
}
