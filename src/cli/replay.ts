import { createReadStream, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createThreadIngest, type IngestOutcome } from '../ingest/threadIngest';
import { openNedbEventStore } from '../store/nedb/nedbEventStore';

const USAGE = 'usage: npm run -s replay -- FILE.jsonl [--data-dir DIR]';
/** Exit code when some lines were rejected (the others were still processed and printed). */
export const EXIT_SOME_LINES_REJECTED = 2;

interface ReplayArgs {
  file: string;
  dataDir?: string;
}

function parseArgs(argv: string[]): ReplayArgs | string {
  const positional: string[] = [];
  let dataDir: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--data-dir') {
      dataDir = argv[++i];
      if (!dataDir) return '--data-dir needs a directory';
    } else if (arg.startsWith('--data-dir=')) {
      dataDir = arg.slice('--data-dir='.length);
    } else if (arg.startsWith('-')) {
      return `unknown option ${arg}`;
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 1) return 'expected exactly one FILE.jsonl';
  return { file: positional[0]!, ...(dataDir ? { dataDir } : {}) };
}

/**
 * Feeds each line of a recorded session (one envelope per line) through the thread-event pipeline into a
 * store and prints every stored row of the threads it touched, one JSON object per line, in seq order: the
 * final state, so pending turn graces end with the input. Each run is its own process: a second run on the
 * same `--data-dir` closes a turn the first left open (docs/events.md "Restart").
 */
async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    process.stderr.write(`${args}\n${USAGE}\n`);
    return 64;
  }
  await fs.access(args.file).catch(() => {
    throw new Error(`cannot read ${args.file}`);
  });
  const dataDir = args.dataDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'replay-')));
  const store = await openNedbEventStore({ dataDir });
  const ingest = createThreadIngest({ store });
  const threadIds = new Set<string>();
  let rejected = 0;
  try {
    const outcomes: Array<Promise<void>> = [];
    let lineNumber = 0;
    for await (const line of createInterface({ input: createReadStream(args.file), crlfDelay: Infinity })) {
      lineNumber += 1;
      if (line.trim() === '') continue;
      const at = lineNumber;
      outcomes.push(
        ingest.ingest(line).then((outcome: IngestOutcome) => {
          if (outcome.ok) {
            for (const row of outcome.rows) threadIds.add(row.threadId);
            return;
          }
          rejected += 1;
          const detail = outcome.error.data === undefined ? '' : ` ${JSON.stringify(outcome.error.data)}`;
          process.stderr.write(`line ${at}: ${outcome.error.message} (JSON-RPC ${outcome.error.code})${detail}\n`);
        }),
      );
    }
    await Promise.all(outcomes);
    // At the end of the recording nothing more can arrive: a turn waiting out its grace closes now.
    await ingest.elapseGraces();
    await ingest.close();
    for (const threadId of threadIds) {
      for (const row of await store.list(threadId)) process.stdout.write(`${JSON.stringify(row)}\n`);
    }
  } finally {
    await ingest.close();
    await store.close();
    if (!args.dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }
  return rejected > 0 ? EXIT_SOME_LINES_REJECTED : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`replay: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
