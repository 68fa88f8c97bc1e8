import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface StartedProcess {
  child: ChildProcess;
  /** The `http://HOST:PORT` (or `https://`) from the first stdout line. */
  url: string;
  lines: string[];
  /**
   * Ctrl-C as a terminal sends it: SIGTERM to the whole process group (npm does not pass signals on to the
   * script it runs). Resolves once every process of the group is gone (npm may exit before the server has
   * closed its store, and a test that removes the data dir then would race its last writes); a group still
   * there after 20 s is SIGKILLed.
   */
  stop(): Promise<void>;
}

const REPO = path.resolve(__dirname, '..', '..', '..');

/**
 * Runs `npm start -- <args>` as a newcomer would, in its own process group, and waits for `listening on`.
 * `repo` is this checkout unless a bench compares another (an older commit's worktree).
 */
export function npmStart(args: string[], env: NodeJS.ProcessEnv = {}, repo = REPO): Promise<StartedProcess> {
  const child = spawn('npm', ['start', '--silent', '--', ...args], {
    cwd: repo,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    await exited;
    await groupGone(child.pid!, 20_000);
  };
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        lines.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        const match = /^listening on (https?:\/\/\S+)$/.exec(lines[0]!);
        if (lines.length === 1) {
          if (match) resolve({ child, url: match[1]!, lines, stop });
          else reject(new Error(`first line was not "listening on …": ${lines[0]}`));
        }
      }
    });
    exited.then(() => reject(new Error(`npm start exited before listening: ${stderr}`)));
  });
}

/** Waits until no process of the group `pgid` is left, SIGKILLing the rest after `timeoutMs`. */
export async function groupGone(pgid: number, timeoutMs: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const deadline = Date.now() + timeoutMs;
  while (alive()) {
    if (Date.now() > deadline) {
      process.kill(-pgid, 'SIGKILL');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
