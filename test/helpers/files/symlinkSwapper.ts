import { spawn } from 'node:child_process';

/** What a swapper puts at its path, in turn, each by an atomic rename over it. */
export type SwapState = { file: string } | { symlink: string };

export interface SymlinkSwapper {
  /** Stops the swapper and resolves with how many swaps it made. */
  stop(): Promise<number>;
}

/**
 * Someone writing in a project folder: a child process (so it runs beside the server's event loop, on
 * another core) that replaces `target` with each state of `states` in turn, forever, each by writing the
 * state under a temp name and renaming it over `target` (atomic: `target` always exists). Resolves once
 * the first swap is done.
 */
export function startSymlinkSwapper(target: string, states: readonly SwapState[]): Promise<SymlinkSwapper> {
  const script = `
    const fs = require('node:fs');
    const [target, statesJson] = process.argv.slice(1);
    const states = JSON.parse(statesJson);
    const temp = target + '.swap-' + process.pid;
    let swaps = 0;
    process.on('SIGTERM', () => { process.stdout.write('swaps ' + swaps + '\\n', () => process.exit(0)); });
    const put = (state) => {
      fs.rmSync(temp, { force: true });
      if (state.file !== undefined) fs.writeFileSync(temp, state.file);
      else fs.symlinkSync(state.symlink, temp);
      fs.renameSync(temp, target);
      swaps++;
    };
    put(states[0]);
    process.stdout.write('ready\\n');
    // Yield now and then, so the SIGTERM handler gets its turn.
    const burst = () => { for (let i = 0; i < 200; i++) put(states[swaps % states.length]); setImmediate(burst); };
    burst();
  `;
  const child = spawn(process.execPath, ['-e', script, target, JSON.stringify(states)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout!.setEncoding('utf8');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.on('data', (chunk: string) => {
      const wasReady = stdout.includes('ready\n');
      stdout += chunk;
      if (!wasReady && stdout.includes('ready\n')) {
        resolve({
          async stop() {
            child.kill('SIGTERM');
            await exited;
            return Number(/swaps (\d+)/.exec(stdout)?.[1] ?? 0);
          },
        });
      }
    });
    exited.then(() => reject(new Error(`the swapper exited before its first swap: ${stdout}`)));
  });
}
