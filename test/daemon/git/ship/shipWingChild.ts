/**
 * The daemon's git wing in a process of its own, for the ship kill test (`shipKillRounds.ts`): its start-up
 * recovery runs (settling a commit or push a kill cut short), the rows it writes go to `<rows file>` one JSON
 * line each, then it prints `ready` and serves one JSON request a line from stdin, printing `ack <id> <result>`
 * or `fail <id> <message>`. The test SIGKILLs it at random moments.
 */
import '../../../helpers/crash/transpileCache';
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createHostDispatcher, type HostHandlers } from '../../../../src/daemon/hostDispatcher';
import { createGitWing, NO_THREAD_LOG } from '../../../../src/daemon/git/gitHandlers';

const [dataDir, rowsFile] = process.argv.slice(2) as [string, string];
const wing = createGitWing({
  dataDir,
  log: (message) => process.stderr.write(`${message}\n`),
  threadLog: { ...NO_THREAD_LOG, ingest: async (frame) => appendFileSync(rowsFile, `${JSON.stringify(frame)}\n`) },
});
const dispatch = createHostDispatcher(wing.handlers as unknown as HostHandlers);
void wing.recovered.then(() => {
  process.stdout.write('ready\n');
  createInterface({ input: process.stdin }).on('line', (line) => {
    const { id, method, params } = JSON.parse(line) as { id: number; method: string; params: unknown };
    void dispatch({ jsonrpc: '2.0', id, method, params }).then((response: any) =>
      process.stdout.write(
        response.error
          ? `fail ${id} ${String(response.error.message).replace(/\n/g, ' ')}\n`
          : `ack ${id} ${JSON.stringify(response.result)}\n`,
      ),
    );
  });
});
