import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface DaemonProcess {
  child: ChildProcess;
  hostId: string;
  stderr(): string;
  /** Resolves with the exit code once the whole process group is gone. */
  exited: Promise<number | null>;
  /** Signals the whole process group (npm does not pass signals on to the script it runs). */
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

const REPO = path.resolve(__dirname, '..', '..', '..');

/**
 * Runs the daemon CLI with `args`: `via: 'npm'` as `npm run daemon -- <args>` the way a person on another
 * machine would (in its own process group), `via: 'node'` as a direct child of the test, for processes a
 * test SIGKILLs: their parent reaps them at once, so the data-dir lock of the dead pid is free for the restart.
 * Resolves once it printed `daemon host_… linking to …` (or exited: then `hostId` is empty).
 */
export function startDaemonProcess(
  args: string[],
  { via, env = {} }: { via: 'npm' | 'node'; env?: NodeJS.ProcessEnv },
): Promise<DaemonProcess> {
  const options = { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
  const child =
    via === 'npm'
      ? spawn('npm', ['run', 'daemon', '--silent', '--', ...args], { ...options, detached: true })
      : spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', 'src/cli/daemon.ts', ...args], options);
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = async (signal: NodeJS.Signals) => {
    try {
      if (via === 'npm') process.kill(-child.pid!, signal);
      else child.kill(signal);
    } catch {
      // already gone
    }
    return exited;
  };
  return new Promise((resolve) => {
    let stdout = '';
    const base = { child, stderr: () => stderr, exited, kill };
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const match = /^daemon (host_\w+) /m.exec(stdout);
      if (match) resolve({ ...base, hostId: match[1]! });
    });
    exited.then(() => resolve({ ...base, hostId: '' }));
  });
}
