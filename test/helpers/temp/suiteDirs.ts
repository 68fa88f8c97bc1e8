import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Temp folders for one `describe`: every folder the returned function makes is removed in an `after` hook
 * of that suite, whatever its tests did with it. Mocha runs `after` hooks in the order they were declared,
 * so call it below the suite's other `after` hooks: the folders go once the servers using them have stopped.
 */
export function suiteTempDirs(): (prefix: string) => Promise<string> {
  const made: string[] = [];
  after(async () => {
    await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async (prefix) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
