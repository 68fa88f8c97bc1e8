import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Mocha root hook plugin (`.mocharc.json` "require"): every test removes what it creates in the temp folder.
 *
 * The run gets a temp folder of its own, set as TMPDIR before any test module loads (os.tmpdir() reads it
 * on every call, and child processes inherit it), so temp dirs of other people's runs on this machine
 * never count. After all tests the folder must hold nothing but the caches below; what else is left fails
 * the run, listed by name. The folder is removed either way.
 */

/**
 * Caches our tools keep under a fixed name, reused by every later run rather than piling up: ts-node's
 * `v8-compile-cache-<uid>` and jiti's (the pi SDK loads extensions through it).
 */
const SHARED_CACHES = [/^v8-compile-cache-\d+$/, /^jiti$/];

const systemTemp = os.tmpdir();
const runTemp = mkdtempSync(path.join(systemTemp, 'ats-test-run-'));
process.env.TMPDIR = runTemp;

export function leftoversIn(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => !SHARED_CACHES.some((cache) => cache.test(name)))
    .sort();
}

export const mochaHooks = {
  afterAll(this: unknown) {
    const leftovers = leftoversIn(runTemp);
    rmSync(runTemp, { recursive: true, force: true });
    process.env.TMPDIR = systemTemp;
    if (leftovers.length > 0) {
      throw new Error(
        `tests left ${leftovers.length} entries in the temp folder (each test must remove what it creates): ${leftovers.join(', ')}`,
      );
    }
  },
};
