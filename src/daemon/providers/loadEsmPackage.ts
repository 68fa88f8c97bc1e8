import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Agent SDKs (pi, ACP) are ESM-only and we are CommonJS: TypeScript would rewrite a plain `import()` into
// `require()`, which cannot load ESM, so the import lives in a Function body the compiler does not see.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

/**
 * A loader of one ESM-only package, importing it once per process (again after a failed load). `defaultMain`
 * is the entry when its package.json names no `main`.
 */
export function esmPackageLoader<T>(name: string, defaultMain: string): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= importEsm(pathToFileURL(entryOf(name, defaultMain)).href).then((module) => module as T);
    loading.catch(() => (loading = undefined));
    return loading;
  };
}

/**
 * A bare specifier inside `new Function` resolves against the process cwd, not this file, and such packages'
 * `exports` have no `require` condition for `require.resolve`; so find the folder the way Node would.
 */
function entryOf(name: string, defaultMain: string): string {
  for (const folder of require.resolve.paths(name) ?? []) {
    const packageJson = path.join(folder, name, 'package.json');
    if (!existsSync(packageJson)) continue;
    const { main } = JSON.parse(readFileSync(packageJson, 'utf8')) as { main?: string };
    return path.join(path.dirname(packageJson), main ?? defaultMain);
  }
  throw new Error(`${name} is not installed (run npm ci)`);
}
