import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HostCommandError } from '../protocol/hostErrors';
import { ListPathsRequestSchema, PATH_LISTING_CONFIG } from '../protocol/hostFiles';
import { parseHostRequest } from '../protocol/parseHostRequest';
import { createPathLister } from '../daemon/pathLister';

const USAGE = `usage: npm run -s paths -- ROOT [--query Q] [--limit N] [--no-files] [--no-directories]

Prints the host.list_paths result for ROOT as JSON.
  --query Q          fuzzy query (a "/" in it matches the relative path); at most ${PATH_LISTING_CONFIG.maxQueryLength} characters
  --limit N          entries to return, 1..${PATH_LISTING_CONFIG.maxLimit} (default ${PATH_LISTING_CONFIG.defaultLimit})
  --no-files         leave files out
  --no-directories   leave directories out`;

/** Bad usage: the message and exit code 2, like other command-line tools. */
class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { root, query, limit, includeFiles, includeDirectories } = parseCommandLine(argv);
  // One call per process: a cache would only cost its background stamping.
  const lister = createPathLister({ cache: false });
  // The command line is where this request enters the process: checked here, as the dispatcher checks a link's.
  const request = parseHostRequest(
    ListPathsRequestSchema,
    { path: resolve(root), query, limit, includeFiles, includeDirectories },
    'host.list_paths',
  );
  const result = await lister.listPaths(request);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}

function parseCommandLine(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        query: { type: 'string', short: 'q' },
        limit: { type: 'string', short: 'n' },
        'no-files': { type: 'boolean' },
        'no-directories': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  if (positionals.length !== 1)
    throw new UsageError(positionals.length === 0 ? 'missing ROOT' : `expected one ROOT, got ${positionals.length}`);
  let limit: number | undefined;
  if (values.limit !== undefined) {
    limit = Number(values.limit);
    if (!/^\d+$/.test(values.limit) || limit < 1 || limit > PATH_LISTING_CONFIG.maxLimit) {
      throw new UsageError(`--limit must be an integer from 1 to ${PATH_LISTING_CONFIG.maxLimit}, got "${values.limit}"`);
    }
  }
  return {
    root: positionals[0],
    query: values.query,
    limit,
    includeFiles: !values['no-files'],
    includeDirectories: !values['no-directories'],
  };
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof HostCommandError) {
    process.stderr.write(`paths: ${error.message}\n`);
    if (error instanceof UsageError) process.stderr.write(`${USAGE}\n`);
    process.exit(2);
  }
  process.stderr.write(`paths: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
