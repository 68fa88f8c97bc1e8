import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const PIPELINE = path.join(ROOT, 'pipelines', 'path-search.ts');

/** Project files and packages a file reaches through runtime imports (not `import type`). */
function reach(file: string, files = new Set<string>(), packages = new Set<string>()): { files: Set<string>; packages: Set<string> } {
  if (files.has(file)) return { files, packages };
  files.add(file);
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/^import\s+(?!type\b)[^'"]*?from\s+'([^']+)'|^import\s+'([^']+)'|require\('([^']+)'\)/gm)) {
    const specifier = (match[1] ?? match[2] ?? match[3])!;
    if (!specifier.startsWith('.')) {
      packages.add(specifier);
      continue;
    }
    const target = [`${specifier}.ts`, `${specifier}/index.ts`]
      .map((candidate) => path.resolve(path.dirname(file), candidate))
      .find(existsSync);
    if (target) reach(target, files, packages);
  }
  return { files, packages };
}

describe('pipelines/path-search.ts imports', () => {
  const { files, packages } = reach(PIPELINE);
  const reached = [...files].map((file) => path.relative(ROOT, file));

  it('reaches no koa, ws, nedb or node:fs at run time (the walk is injected)', () => {
    const forbidden = ['koa', '@koa/router', 'ws', 'nedb-promises', 'fs', 'node:fs', 'fs/promises', 'node:fs/promises'];
    expect([...packages]).to.include('rxjs');
    expect([...packages].filter((name) => forbidden.includes(name))).to.deep.equal([]);
  });

  it('composes stages from src/ only: nothing it reaches imports a pipeline or the lister that runs it (no cycle)', () => {
    expect(reached.filter((file) => file.startsWith('pipelines/') && file !== 'pipelines/path-search.ts')).to.deep.equal([]);
    expect(reached).to.not.include('src/daemon/pathLister.ts');
    expect(reached).to.include.members(['src/paths/rank/keepKinds.ts', 'src/paths/rank/rankByQuery.ts', 'src/paths/rank/truncateTo.ts']);
  });
});
