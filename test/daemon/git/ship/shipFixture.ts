import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHostDispatcher, type HostHandlers } from '../../../../src/daemon/hostDispatcher';
import { createGitWing, type GitWing, NO_THREAD_LOG } from '../../../../src/daemon/git/gitHandlers';
import { git, initRepo } from '../../../helpers/git/gitRepo';

export { git };

/**
 * A project as it is when a thread's work is ready to ship: a checkout on `main` whose `origin` is a local bare
 * repository (pushed to once), on a branch `feature` of its own, with the user's identity in its config.
 */
export function makeShipRepo(root: string): { checkout: string; origin: string } {
  const origin = path.join(root, 'origin.git');
  const checkout = path.join(root, 'project');
  mkdirSync(checkout, { recursive: true });
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  initRepo(checkout, { 'README.md': '# project\n', 'src/app.ts': 'export const app = 1;\n' });
  git(checkout, 'config', 'user.name', 'Ada Lovelace');
  git(checkout, 'config', 'user.email', 'ada@example.com');
  git(checkout, 'remote', 'add', 'origin', origin);
  git(checkout, 'push', '-q', '-u', 'origin', 'main');
  git(checkout, 'switch', '-q', '-c', 'feature');
  return { checkout, origin };
}

/**
 * A stand-in for the forge CLI (`gh` or `glab`), the one boundary this machine cannot reach: it appends its
 * arguments (and what it read on stdin) as a JSON line to `calls.jsonl`, prints a pull request URL for a
 * create, and for a view the JSON the real CLI prints, with the state read from `state` beside it.
 */
export function makeForgeStandIn(root: string, program: 'gh' | 'glab' = 'gh', options: { loggedIn?: boolean } = {}) {
  const bin = path.join(root, 'forge-bin');
  mkdirSync(bin, { recursive: true });
  const calls = path.join(bin, 'calls.jsonl');
  const state = path.join(bin, 'state');
  writeFileSync(state, 'OPEN');
  const url = program === 'gh' ? 'https://github.com/acme/project/pull/7' : 'https://gitlab.com/acme/project/-/merge_requests/7';
  const view =
    program === 'gh'
      ? `{"url":"${url}","number":7,"state":"%s","baseRefName":"main","headRefName":"feature","isDraft":false}`
      : `{"web_url":"${url}","iid":7,"state":"%s","target_branch":"main","source_branch":"feature","draft":false}`;
  writeFileSync(
    path.join(bin, program),
    `#!/usr/bin/env node
const fs = require('fs');
const args = process.argv.slice(2);
const stdin = args.includes('-') ? fs.readFileSync(0, 'utf8') : '';
fs.appendFileSync(${JSON.stringify(calls)}, JSON.stringify({ args, stdin }) + '\\n');
if (args[0] === 'auth') { if (${options.loggedIn === false}) { console.error('You are not logged into any hosts. Run ${program} auth login to authenticate.'); process.exit(1); } process.exit(0); }
if (args[1] === 'create') { console.log(${JSON.stringify(url)}); process.exit(0); }
if (args[1] === 'view') { console.log(${JSON.stringify(view)}.replace('%s', fs.readFileSync(${JSON.stringify(state)}, 'utf8').trim())); process.exit(0); }
process.exit(2);
`,
  );
  chmodSync(path.join(bin, program), 0o755);
  const { readFileSync, existsSync } = require('node:fs') as typeof import('node:fs');
  return {
    bin,
    url,
    env: { PATH: `${bin}${path.delimiter}${process.env.PATH}` },
    calls: (): { args: string[]; stdin: string }[] =>
      existsSync(calls)
        ? readFileSync(calls, 'utf8')
            .trim()
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line))
        : [],
    setState: (value: string) => writeFileSync(state, value),
  };
}

const unused = async (): Promise<never> => {
  throw new Error('not used in ship tests');
};

/** The git wing behind the real dispatcher, its rows caught: `call` answers a result or throws `{ hostCode, message }`. */
export function shipDaemon(
  dataDir: string,
  env?: Record<string, string>,
  timeoutMs?: number,
): { wing: GitWing; rows: { method: string; params: any }[]; logs: string[]; call(method: string, params: unknown): Promise<any> } {
  const rows: { method: string; params: any }[] = [];
  const logs: string[] = [];
  const wing = createGitWing({
    dataDir,
    log: (message) => logs.push(message),
    threadLog: { ...NO_THREAD_LOG, ingest: async (frame) => void rows.push(frame as { method: string; params: any }) },
    remote: { ...(env ? { env } : {}), ...(timeoutMs ? { timeoutMs } : {}) },
  });
  const handlers = new Proxy({ ...wing.handlers } as unknown as HostHandlers, { get: (target, key) => (target as any)[key] ?? unused });
  const dispatch = createHostDispatcher(handlers, (message) => logs.push(message));
  let id = 1;
  return {
    wing,
    rows,
    logs,
    async call(method, params) {
      const response = (await dispatch({ jsonrpc: '2.0', id: id++, method, params })) as any;
      if (response.error) throw Object.assign(new Error(response.error.message), { hostCode: response.error.data?.hostCode });
      return response.result;
    },
  };
}

/**
 * A PATH holding git, a shell and node but no forge CLI, whatever this machine has installed (a real `gh` in
 * /usr/bin would otherwise answer the tests of a host without one).
 */
export function pathWithoutForgeClis(root: string): string {
  const bin = path.join(root, 'no-forge-bin');
  mkdirSync(bin, { recursive: true });
  for (const program of ['git', 'sh']) {
    const found = execFileSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).trim();
    if (!existsSync(path.join(bin, program))) symlinkSync(found, path.join(bin, program));
  }
  // Node itself by a link too: its own folder may be /usr/bin, beside a real gh.
  if (!existsSync(path.join(bin, 'node'))) symlinkSync(process.execPath, path.join(bin, 'node'));
  return bin;
}
