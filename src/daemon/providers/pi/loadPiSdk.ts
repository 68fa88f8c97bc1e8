import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as PiSdkModule from '@mariozechner/pi-coding-agent';

/** The pi coding-agent SDK module (0.73.x). Only this folder names it, so the 1.x upgrade is one folder's change. */
export type PiSdk = typeof PiSdkModule;

export const PI_SDK_PACKAGE = '@mariozechner/pi-coding-agent';

// pi is ESM-only and we are CommonJS: TypeScript would rewrite a plain `import()` into `require()`, which
// cannot load ESM, so the import lives in a Function body the compiler does not see.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

let loading: Promise<PiSdk> | undefined;

/** Loads the SDK once per process. */
export function loadPiSdk(): Promise<PiSdk> {
  loading ??= importEsm(pathToFileURL(resolvePiEntry()).href).then((module) => module as PiSdk);
  loading.catch(() => (loading = undefined));
  return loading;
}

/**
 * A bare specifier inside `new Function` resolves against the process cwd, not this file, and the package's
 * `exports` has no `require` condition for `require.resolve`; so find its folder the way Node would.
 */
function resolvePiEntry(): string {
  for (const folder of require.resolve.paths(PI_SDK_PACKAGE) ?? []) {
    const packageJson = path.join(folder, PI_SDK_PACKAGE, 'package.json');
    if (!existsSync(packageJson)) continue;
    const { main } = JSON.parse(readFileSync(packageJson, 'utf8')) as { main?: string };
    return path.join(path.dirname(packageJson), main ?? 'dist/index.js');
  }
  throw new Error(`${PI_SDK_PACKAGE} is not installed (run npm ci)`);
}
