/**
 * A real host daemon (git wing, pipeline, nedb event store in the data dir) in a process of its own, for the
 * rewind kill test (`rewindKillRounds.ts`): it serves one JSON request a line from stdin through the real
 * dispatcher and prints `ack <id> <result>` or `fail <id> <message>`. `rows` (not a contract command) answers
 * the thread's stored rows. The test SIGKILLs it at random moments; its next start finishes a cut-short step.
 */
import '../../../helpers/crash/transpileCache';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createHostDaemon } from '../../../../src/daemon/hostDaemon';
import type { HostFileOperations } from '../../../../src/daemon/hostFileHandlers';
import { createThreadIngest } from '../../../../src/ingest/threadIngest';
import { openNedbEventStore } from '../../../../src/store/nedb/nedbEventStore';
import { fakeProvider } from '../../../helpers/fakes/provider';

async function main(): Promise<void> {
  const dataDir = process.argv[2]!;
  const store = await openNedbEventStore({ dataDir: path.join(dataDir, 'store') });
  const daemon = createHostDaemon({
    identity: { hostId: 'host_kill', name: 'kill' },
    dataDir,
    store,
    providers: [fakeProvider('fake')],
    files: {} as HostFileOperations,
    createIngest: createThreadIngest,
    log: (message) => process.stderr.write(`${message}\n`),
  });
  let id = 1;
  const call = async (method: string, params: any): Promise<unknown> => {
    if (method === 'rows') return store.list(params.threadId);
    const response = (await daemon.dispatch({ jsonrpc: '2.0', id: id++, method, params })) as any;
    if (response.error) throw new Error(`${response.error.data?.hostCode ?? response.error.code}: ${response.error.message}`);
    return response.result;
  };
  process.stdout.write('ready\n');
  createInterface({ input: process.stdin }).on('line', (line) => {
    const request = JSON.parse(line) as { id: number; method: string; params: unknown };
    call(request.method, request.params).then(
      (result) => process.stdout.write(`ack ${request.id} ${JSON.stringify(result)}\n`),
      (error: Error) => process.stdout.write(`fail ${request.id} ${error.message.replace(/\n/g, ' ')}\n`),
    );
  });
}

void main();
