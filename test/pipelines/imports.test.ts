import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const FORBIDDEN = ['koa', '@koa/router', 'ws', 'nedb-promises', '@seald-io/nedb', 'fs', 'node:fs', 'fs/promises', 'node:fs/promises'];

/** Runtime imports (not `import type`) reachable from a file, following relative paths. */
function runtimeImports(file: string, seen = new Set<string>()): Set<string> {
  const external = new Set<string>();
  if (seen.has(file)) return external;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/^import\s+(?!type\b)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'|require\('([^']+)'\)/gm)) {
    const specifier = (match[1] ?? match[2] ?? match[3])!;
    if (!specifier.startsWith('.')) {
      external.add(specifier);
      continue;
    }
    const target = [`${specifier}.ts`, `${specifier}/index.ts`]
      .map((candidate) => path.resolve(path.dirname(file), candidate))
      .find(existsSync);
    if (target) for (const name of runtimeImports(target, seen)) external.add(name);
  }
  return external;
}

describe('pipelines/ imports', () => {
  const files = [
    path.join(ROOT, 'pipelines', 'thread-events.ts'),
    path.join(ROOT, 'pipelines', 'webhook-notifications.ts'),
    ...readdirSync(path.join(ROOT, 'pipelines', 'stages'))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => path.join(ROOT, 'pipelines', 'stages', name)),
  ];
  for (const file of files) {
    it(`${path.relative(ROOT, file)} reaches no koa, ws, nedb or node:fs at run time`, () => {
      const reached = [...runtimeImports(file)];
      expect(reached).to.include('rxjs');
      expect(reached.filter((name) => FORBIDDEN.includes(name))).to.deep.equal([]);
    });
  }
});
