import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SearchWorkerAnswer, SearchWorkerRequest } from './workerProtocol';

type Asked = SearchWorkerRequest & { id: number };
type Request = Asked extends infer R ? (R extends Asked ? Omit<R, 'id'> : never) : never;

export interface SearchWorkerThread {
  /** Hands the worker a message that needs no answer (queued rows); kept in order with `ask`. */
  tell(request: Extract<SearchWorkerRequest, { op: 'add' }>): void;
  ask(request: Request): Promise<unknown>;
  /** Where the worker's log lines about `file` go, until the returned function is called. */
  listen(file: string, log: (message: string) => void): () => void;
}

let shared: ReturnType<typeof startWorker> | undefined;
const logs = new Map<string, (message: string) => void>();

/**
 * The process's one search worker (`searchWorker.ts`), started on first use and shared by every embedded
 * index in the process (a test run starts many servers; each worker would load the TypeScript compiler).
 * An idle worker does not keep the process alive. If it dies, what it was asked fails and the next request
 * starts another, which opens the index files again.
 */
export const searchWorkerThread: SearchWorkerThread = {
  tell(request) {
    (shared ??= startWorker()).worker.postMessage(request);
  },
  ask(request) {
    shared ??= startWorker();
    return shared.ask(request);
  },
  listen(file, log) {
    logs.set(file, log);
    return () => logs.delete(file);
  },
};

function startWorker() {
  const worker = workerOf(path.join(__dirname, 'searchWorker'));
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  const self = {
    worker,
    ask(request: Request) {
      return new Promise<unknown>((resolve, reject) => {
        const id = ++nextId;
        waiting.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...request, id });
      });
    },
  };
  worker.on('message', (answer: SearchWorkerAnswer) => {
    if ('log' in answer) return (logs.get(answer.file) ?? console.error)(answer.log);
    const asked = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (answer.error === undefined) asked?.resolve(answer.value);
    else asked?.reject(new Error(answer.error));
    if (waiting.size === 0) worker.unref();
  });
  const fail = (error: Error) => {
    if (shared !== self) return;
    shared = undefined;
    for (const log of new Set(logs.values())) log(`search worker stopped (${error.message}); the next request starts another`);
    for (const asked of waiting.values()) asked.reject(error);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`search worker exited with code ${code}`)));
  // After the listeners: adding a 'message' listener refs the worker's port again.
  worker.unref();
  return self;
}

/** The compiled worker (`npm start` runs dist/), or its TypeScript source through ts-node (tests, benches). */
function workerOf(entry: string): Worker {
  if (existsSync(`${entry}.js`)) return new Worker(`${entry}.js`);
  const tsNode = require.resolve('ts-node');
  const project = path.resolve(__dirname, '..', '..', '..', '..', 'tsconfig.json');
  const options = JSON.stringify({ transpileOnly: true, project });
  const source = `require(${JSON.stringify(tsNode)}).register(${options}); require(${JSON.stringify(`${entry}.ts`)});`;
  return new Worker(source, { eval: true });
}
