/**
 * For crash children started many times in one test: ts-node transpiles the server's ~220 files at every
 * start (seconds each time on a loaded machine), so with `CRASH_TRANSPILE_CACHE=<folder>` the JavaScript it
 * made is kept there, keyed by file and content, and the next start compiles that instead. Import it first.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type Loader = (module: NodeJS.Module, filename: string) => void;
type Compile = (code: string, filename: string) => unknown;

const folder = process.env['CRASH_TRANSPILE_CACHE'];
const extensions = require.extensions as unknown as Record<string, Loader>;
const tsNodeLoad = extensions['.ts'];

if (folder && tsNodeLoad) {
  mkdirSync(folder, { recursive: true });
  extensions['.ts'] = (module, filename) => {
    const source = readFileSync(filename, 'utf8');
    const cached = path.join(folder, `${createHash('sha256').update(filename).update('\0').update(source).digest('hex')}.js`);
    const withCompile = module as NodeJS.Module & { _compile: Compile };
    let code: string | undefined;
    try {
      code = readFileSync(cached, 'utf8');
    } catch {
      // Not cached yet: ts-node transpiles it, and hands the JavaScript to the `_compile` wrapped here.
      const compile = withCompile._compile;
      withCompile._compile = function (this: unknown, js, name) {
        writeFileSync(`${cached}.${process.pid}`, js);
        renameSync(`${cached}.${process.pid}`, cached); // whole or absent, whenever the process dies
        return compile.call(this, js, name);
      };
      return tsNodeLoad(module, filename);
    }
    withCompile._compile(code, filename);
  };
}
