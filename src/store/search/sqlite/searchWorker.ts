import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { SearchDoc } from '../searchableText';
import { openSearchDatabase, type SearchDatabase } from './searchDatabase';
import { SEARCH_WORKER_NICENESS, type SearchWorkerAnswer, type SearchWorkerRequest } from './workerProtocol';

/**
 * The search worker thread: owns every SQLite connection of the process's search indexes, so index writes
 * and queries never run on the server's event loop. Queued rows of each index are written in one
 * transaction once the messages waiting now are read; any other request first writes what is queued, so
 * requests see every row sent before them.
 */
interface Open {
  db: SearchDatabase;
  docs: SearchDoc[];
  heads: [string, number][];
  failed: boolean;
}

const port = parentPort!;
const opened = new Map<string, Open>();
let scheduled = false;
// Linux keeps a nice value per thread, so this lowers only this worker.
if (process.platform === 'linux') {
  try {
    os.setPriority(SEARCH_WORKER_NICENESS);
  } catch {
    // not allowed here: the worker runs at the process's priority
  }
}

const answer = (message: SearchWorkerAnswer) => port.postMessage(message);
const logTo = (file: string) => (log: string) => answer({ file, log });

function openFor(file: string): Open {
  let open = opened.get(file);
  if (!open) opened.set(file, (open = { db: openSearchDatabase(file, logTo(file)), docs: [], heads: [], failed: false }));
  return open;
}

function write(file: string, open: Open) {
  if (open.docs.length === 0 && open.heads.length === 0) return;
  const [docs, heads] = [open.docs, open.heads];
  [open.docs, open.heads] = [[], []];
  try {
    open.db.add(docs, heads);
  } catch (error) {
    if (!open.failed) logTo(file)(`search index ${file} not written (${String(error)}); searches still answer, the next start catches up`);
    open.failed = true;
  }
}

function handle(request: SearchWorkerRequest): unknown {
  const open = openFor(request.file);
  if (request.op === 'add') {
    open.docs.push(...request.docs);
    open.heads.push(...request.heads);
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        for (const [file, each] of opened) write(file, each);
      });
    }
    return undefined;
  }
  write(request.file, open);
  switch (request.op) {
    case 'remove':
      return open.db.removeThread(request.threadId);
    case 'heads':
      return open.db.heads();
    case 'search':
      return open.db.search(request.query);
    case 'flush':
      return undefined;
    case 'close':
      opened.delete(request.file);
      return open.db.close();
  }
}

port.on('message', (request: SearchWorkerRequest) => {
  try {
    const value = handle(request);
    if (request.op !== 'add') answer({ id: request.id, value });
  } catch (error) {
    if (request.op !== 'add') answer({ id: request.id, error: String(error) });
    else logTo(request.file)(`search index ${request.file}: ${String(error)}`);
  }
});
