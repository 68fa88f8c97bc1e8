import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface StartedProcess {
  child: ChildProcess;
  /** The `http://HOST:PORT` from the first stdout line. */
  url: string;
  lines: string[];
  /**
   * Ctrl-C as a terminal sends it: SIGTERM to the whole process group (npm does not pass signals on to the
   * script it runs). Resolves once npm has exited; the server may still be finishing its shutdown.
   */
  stop(): Promise<void>;
}

const REPO = path.resolve(__dirname, '..', '..');

/** Runs `npm start -- <args>` as a newcomer would, in its own process group, and waits for `listening on`. */
export function npmStart(args: string[], env: NodeJS.ProcessEnv = {}): Promise<StartedProcess> {
  const child = spawn('npm', ['start', '--silent', '--', ...args], {
    cwd: REPO,
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
    return exited;
  };
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        lines.push(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        const match = /^listening on (http:\/\/\S+)$/.exec(lines[0]!);
        if (lines.length === 1) {
          if (match) resolve({ child, url: match[1]!, lines, stop });
          else reject(new Error(`first line was not "listening on …": ${lines[0]}`));
        }
      }
    });
    exited.then(() => reject(new Error(`npm start exited before listening: ${stderr}`)));
  });
}
