import { spawn, spawnSync } from 'node:child_process';

export interface BaselineTool {
  /** What is measured, as a person would type it. */
  label: string;
  command: string;
  args: (root: string) => string[];
}

/** `fd -H -I` (hidden and ignored files: a full walk) when installed, else `find`, which every host has. */
export function pickBaselineTool(): BaselineTool {
  for (const command of ['fd', 'fdfind']) {
    if (spawnSync(command, ['--version']).status === 0) {
      return { label: `${command} -H -I`, command, args: (root) => ['-H', '-I', '.', root] };
    }
  }
  return { label: 'find', command: 'find', args: (root) => [root] };
}

/** Wall time of one baseline walk, output read and discarded (the tool pays for writing it). */
export function timeBaselineWalk(tool: BaselineTool, root: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(tool.command, tool.args(root), { stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.resume();
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}
