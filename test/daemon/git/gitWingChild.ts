/**
 * The daemon's git wing in a process of its own, for the kill test (`gitKillRounds.ts`): it runs the start-up
 * recovery, prints `ready`, then serves one JSON request a line from stdin through the real dispatcher and
 * prints `ack <id> <result>` or `fail <id> <message>` for each. The test SIGKILLs it at random moments.
 */
import '../../helpers/crash/transpileCache';
import { createInterface } from 'node:readline';
import { gitDaemon } from './gitFixture';

const dataDir = process.argv[2]!;
const daemon = gitDaemon(dataDir);
void daemon.wing.recovered.then(() => {
  process.stdout.write('ready\n');
  createInterface({ input: process.stdin }).on('line', (line) => {
    const { id, method, params } = JSON.parse(line) as { id: number; method: string; params: unknown };
    daemon.call(method, params).then(
      (result) => process.stdout.write(`ack ${id} ${JSON.stringify(result)}\n`),
      (error: Error) => process.stdout.write(`fail ${id} ${error.message.replace(/\n/g, ' ')}\n`),
    );
  });
});
