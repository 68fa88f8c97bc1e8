/**
 * Lists every function, arrow and method in `src/` longer than a limit, and every file longer than a limit,
 * longest first (issues 37 and 41: no function over 120 lines, no file over 300 lines).
 *
 * A function's length is its full span, first line to last, nested functions included: that is how the
 * issues count (`createLiveTree` 231 lines). Generated files are left out.
 *
 *   npm run check:function-lengths                  functions over 120 lines, files over 300
 *   npm run check:function-lengths -- --functions 150 --files 400
 *   npm run check:function-lengths -- --strict       exits 1 when anything is listed
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..');
const GENERATED = new Set(['src/web/api/openapi.d.ts']);

interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts)$/.test(entry) ? [path] : [];
  });
}

function isFunction(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a reader would search for: the declaration's own, or the variable/property it is assigned to. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText(source).slice(0, 40)})`;
  return '(anonymous)';
}

function functionLengths(path: string): FunctionLength[] {
  const text = readFileSync(path, 'utf8');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const file = relative(ROOT, path);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (isFunction(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, name: functionName(node, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function numberAfter(args: string[], flag: string, fallback: number): number {
  const at = args.indexOf(flag);
  return at >= 0 ? Number(args[at + 1]) : fallback;
}

function main(): void {
  const args = process.argv.slice(2);
  const functionLimit = numberAfter(args, '--functions', 120);
  const fileLimit = numberAfter(args, '--files', 300);
  const files = sourceFiles(join(ROOT, 'src')).filter((path) => !GENERATED.has(relative(ROOT, path)));

  const longFunctions = files
    .flatMap(functionLengths)
    .filter((fn) => fn.lines > functionLimit)
    .sort((a, b) => b.lines - a.lines);
  const longFiles = files
    .map((path) => ({ file: relative(ROOT, path), lines: readFileSync(path, 'utf8').split('\n').length - 1 }))
    .filter((entry) => entry.lines > fileLimit)
    .sort((a, b) => b.lines - a.lines);

  console.log(`functions over ${functionLimit} lines: ${longFunctions.length}`);
  for (const fn of longFunctions) console.log(`  ${String(fn.lines).padStart(4)}  ${fn.name}  ${fn.file}:${fn.line}`);
  console.log(`files over ${fileLimit} lines: ${longFiles.length}`);
  for (const entry of longFiles) console.log(`  ${String(entry.lines).padStart(4)}  ${entry.file}`);

  if (args.includes('--strict') && (longFunctions.length > 0 || longFiles.length > 0)) process.exitCode = 1;
}

main();
