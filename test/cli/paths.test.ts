import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { createTempTree, removeTempTree } from '../helpers/temp/tree';

const projectRoot = join(__dirname, '..', '..');

/** Runs `src/cli/paths.ts` as a child process, as `npm run -s paths -- …` does. */
function runPaths(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(projectRoot, 'src/cli/paths.ts'), ...args],
      { cwd: projectRoot },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('paths CLI (npm run -s paths -- ROOT …)', function () {
  this.timeout(30_000);
  let root: string;
  before(() => {
    root = createTempTree({ src: { 'index.ts': '', 'reindex.ts': '' }, '.env': '', '.git': { HEAD: '' } });
  });
  after(() => removeTempTree(root));

  it('prints the host.list_paths result as JSON', async () => {
    const { code, stdout } = await runPaths([root]);
    expect(code).to.equal(0);
    expect(JSON.parse(stdout)).to.deep.equal({
      paths: [
        { kind: 'file', path: '.env', name: '.env', score: 0, positions: [] },
        { kind: 'directory', path: 'src', name: 'src', score: 0, positions: [] },
        { kind: 'file', path: 'src/index.ts', name: 'index.ts', score: 0, positions: [] },
        { kind: 'file', path: 'src/reindex.ts', name: 'reindex.ts', score: 0, positions: [] },
      ],
      truncated: false,
    });
  });

  it('passes --query, --limit and --no-directories through', async () => {
    const { code, stdout } = await runPaths([root, '--query', 'index', '--limit', '1', '--no-directories']);
    expect(code).to.equal(0);
    const result = JSON.parse(stdout);
    expect(result.paths.map((entry: { path: string }) => entry.path)).to.deep.equal(['src/index.ts']);
    expect(result.truncated).to.equal(true);
  });

  const usageErrors: Array<[what: string, args: () => string[], mentions: string]> = [
    ['an unknown flag', () => [root, '--bogus'], '--bogus'],
    ['a missing root argument', () => [], 'missing ROOT'],
    ['a root that does not exist', () => [join(root, 'nope')], 'root not found'],
    ['a root that is a file', () => [join(root, '.env')], 'not a directory'],
    ['a bad --limit', () => [root, '--limit', 'ten'], '--limit'],
    ['--limit over the cap', () => [root, '--limit', '10001'], '--limit'],
    ['--limit 0', () => [root, '--limit', '0'], '--limit'],
    ['--limit without a value', () => [root, '--limit'], '--limit'],
    ['a query over the length cap', () => [root, '--query', 'x'.repeat(257)], 'query'],
    ['two roots', () => [root, root], 'expected one ROOT'],
    ['both kinds turned off', () => [root, '--no-files', '--no-directories'], 'nothing could be listed'],
  ];
  describe('bad usage', () => {
    // Child processes are slow to start (ts-node); run them side by side, then check each.
    let outcomes: Array<Awaited<ReturnType<typeof runPaths>>> = [];
    before(async function () {
      this.timeout(120_000); // several ts-node starts at once: ~6 s each alone, far more on a loaded machine
      outcomes = await Promise.all(usageErrors.map(([, args]) => runPaths(args())));
    });
    usageErrors.forEach(([what, , mentions], index) => {
      it(`exits 2 with a clear message for ${what}`, () => {
        const { code, stdout, stderr } = outcomes[index];
        expect(code).to.equal(2);
        expect(stdout).to.equal('');
        expect(stderr).to.contain(mentions);
      });
    });
  });
});
