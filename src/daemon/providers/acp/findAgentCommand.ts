import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * The executable a command names: itself when it is a path, else the first match on PATH or in the extra
 * folders (the project's node_modules/.bin, where `npm i` of an adapter puts it). Undefined when none is found.
 */
export function findAgentCommand(command: string, options: { path?: string; binDirs?: readonly string[] }): string | undefined {
  if (command.includes('/')) return isExecutable(command) ? path.resolve(command) : undefined;
  const dirs = [...(options.path ?? '').split(path.delimiter).filter(Boolean), ...(options.binDirs ?? [])];
  for (const dir of dirs) {
    const candidate = path.join(dir, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
