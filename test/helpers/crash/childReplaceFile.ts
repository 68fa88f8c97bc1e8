/**
 * A crash-test child (see harness.ts) for `replaceFile`: `node … test/helpers/crash/childReplaceFile.ts <file>` reads
 * the file's `{version}` (printing `ready <version>`, or failing when it does not parse), then replaces it
 * with version + 1, + 2, … (each padded to 1 MiB, so a kill often lands mid-write) and prints `ack <version>`
 * after each replacement.
 */
import { readFile } from 'node:fs/promises';
import { replaceFile } from '../../../src/store/replaceFile';

const PADDING = 'x'.repeat(1024 * 1024);

async function main(): Promise<void> {
  const file = process.argv[2]!;
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) =>
    error.code === 'ENOENT' ? undefined : Promise.reject(error),
  );
  let version = text === undefined ? 0 : (JSON.parse(text) as { version: number }).version;
  console.log(`ready ${version}`);
  for (;;) {
    version += 1;
    await replaceFile(file, JSON.stringify({ version, padding: PADDING }) + '\n');
    process.stdout.write(`ack ${version}\n`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
