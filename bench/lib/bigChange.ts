import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A git repo whose working tree holds a change of `files` files and `files * linesPerFile` changed lines
 * (issue 38's bench: 1,000 files, 50,000 lines): every file committed with `2 * linesPerFile` lines, then
 * every other line rewritten (a deletion and an addition each), uncommitted.
 */
export async function writeBigChange(folder: string, files: number, linesPerFile: number): Promise<void> {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: folder, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'bench@example.invalid');
  git('config', 'user.name', 'bench');
  const fileOf = (index: number) => path.join(folder, 'src', `mod${Math.floor(index / 100)}`, `file${index}.ts`);
  for (let index = 0; index < files; index++) {
    await mkdir(path.dirname(fileOf(index)), { recursive: true });
    const lines = Array.from({ length: 2 * linesPerFile }, (_, line) => `export const value${line} = ${line}; // file ${index}`);
    await writeFile(fileOf(index), `${lines.join('\n')}\n`);
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'base');
  for (let index = 0; index < files; index++) {
    const lines = Array.from({ length: 2 * linesPerFile }, (_, line) =>
      line % 4 === 0
        ? `export const value${line} = ${line * 2}; // changed in file ${index}`
        : `export const value${line} = ${line}; // file ${index}`,
    );
    await writeFile(fileOf(index), `${lines.join('\n')}\n`);
  }
}
