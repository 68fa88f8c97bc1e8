import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

/**
 * Crash tests: a child ts-node script does real writes and prints one stdout line per write it got acked,
 * `ack <key> [<key> …]`; the test SIGKILLs it at a random moment, starts it again, and checks that every
 * acked key is stored exactly once. Other lines (`starting`, `ready …`, `done`) mark the child's phases, so a
 * kill can aim at one of them.
 *
 * Pipes are synchronous on Linux: a line the child printed before it died is in the pipe, and is read here
 * after the kill. A write acked but not yet printed is simply not counted, which only makes the check weaker
 * for that one write, never wrong.
 */
export interface CrashChild {
  child: ChildProcess;
  /** Complete stdout lines so far. */
  lines: string[];
  /** Keys of every `ack` line so far, in order. */
  acked(): string[];
  stderr(): string;
  /** Resolves with the first line (so far or to come) matching `pattern`; rejects if the child ends first. */
  line(pattern: RegExp): Promise<string>;
  /** Resolves once the child has exited and its output is read whole. */
  ended: Promise<CrashEnd>;
  /** SIGKILL (a no-op once it ended); resolves with how it ended. */
  kill(): Promise<CrashEnd>;
}

export interface CrashEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const REPO = path.resolve(__dirname, '..', '..', '..');

/** Runs `node -r ts-node/register/transpile-only <script> <args>` from the repository root. */
export function spawnCrashChild(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): CrashChild {
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: Array<{ pattern: RegExp; resolve(line: string): void }> = [];
  let stderr = '';
  let partial = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    partial += chunk;
    let end: number;
    while ((end = partial.indexOf('\n')) >= 0) {
      const line = partial.slice(0, end);
      partial = partial.slice(end + 1);
      lines.push(line);
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  // 'close' comes after 'exit' once stdout and stderr are drained: every line printed before a kill is in.
  const ended = new Promise<CrashEnd>((resolve) => child.once('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    lines,
    acked: () => lines.filter((line) => line.startsWith('ack ')).flatMap((line) => line.slice(4).split(' ').filter(Boolean)),
    stderr: () => stderr,
    line(pattern) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ pattern, resolve });
        ended.then(({ code, signal }) =>
          reject(new Error(`child ended (code ${code}, signal ${signal}) before printing ${pattern}; stderr: ${stderr}`)),
        );
      });
    },
    ended,
    kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return ended;
    },
  };
}

/** What a child run that was (or might have been) killed left: acked keys, output, and how it ended. */
export interface CrashRun extends CrashEnd {
  acked: string[];
  lines: string[];
  stderr: string;
  /** True when the SIGKILL came before the child finished by itself. */
  killed: boolean;
}

/**
 * Starts `script`, waits for the first line matching `after` (default: the child's start), then SIGKILLs it
 * `delayMs` later, unless it ended by itself first. A child that fails on its own (a non-zero exit) fails the run.
 */
export async function runUntilKilled(options: {
  script: string;
  args?: readonly string[];
  env?: NodeJS.ProcessEnv;
  after?: RegExp;
  delayMs: number;
}): Promise<CrashRun> {
  const child = spawnCrashChild(options.script, options.args, options.env);
  if (options.after) await child.line(options.after);
  const endedFirst = await Promise.race([
    child.ended.then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), options.delayMs)),
  ]);
  const end = await child.kill();
  if (endedFirst && end.code !== 0) throw new Error(`child failed (code ${end.code}): ${child.stderr()}`);
  return { ...end, acked: child.acked(), lines: child.lines, stderr: child.stderr(), killed: end.signal === 'SIGKILL' };
}

/** Runs `script` to its end; a non-zero exit fails. */
export async function runToEnd(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<CrashRun> {
  const child = spawnCrashChild(script, args, env);
  const end = await child.ended;
  if (end.code !== 0) throw new Error(`${script} failed (code ${end.code}, signal ${end.signal}): ${child.stderr()}`);
  return { ...end, acked: child.acked(), lines: child.lines, stderr: child.stderr(), killed: false };
}

/**
 * Seeded randomness for kill moments, so a failure can be replayed: the seed is `CRASH_SEED` when set, and
 * the test puts `describe()` into its failure messages.
 */
export interface CrashRandom {
  seed: number;
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  between(min: number, max: number): number;
  describe(): string;
}

export function crashRandom(seed = Number(process.env.CRASH_SEED) || Math.floor(Math.random() * 2 ** 31)): CrashRandom {
  // mulberry32: small, fast, and good enough to spread kill moments.
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return {
    seed,
    next,
    between: (min, max) => min + Math.floor(next() * (max - min + 1)),
    describe: () => `CRASH_SEED=${seed}`,
  };
}

/** Every acked key is among the stored ones exactly once; stored keys never acked are allowed (acks lost in the kill). */
export function expectAckedExactlyOnce(acked: readonly string[], stored: readonly string[], context: string): void {
  const counts = new Map<string, number>();
  for (const key of stored) counts.set(key, (counts.get(key) ?? 0) + 1);
  const missing = acked.filter((key) => !counts.has(key));
  const duplicated = [...counts].filter(([, count]) => count > 1).map(([key]) => key);
  expect(missing, `${context}: acked but not stored`).to.deep.equal([]);
  expect(duplicated, `${context}: stored more than once`).to.deep.equal([]);
}
