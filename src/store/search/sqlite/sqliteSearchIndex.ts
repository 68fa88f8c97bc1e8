import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { RowHit, SearchIndex } from '../searchIndex';
import { searchDocOf, type SearchDoc } from '../searchableText';
import { searchWorkerThread } from './searchWorkerThread';

/** The index's file in the data dir (with SQLite's `-wal` and `-shm` beside it while open). */
export const SEARCH_INDEX_FILE = path.join('search', 'index.sqlite');

export interface SqliteSearchIndexOptions {
  dataDir: string;
  log(message: string): void;
}

/**
 * The embedded engine: SQLite FTS5 in the data dir (`searchDatabase.ts`), written and queried on the search
 * worker thread. Stored rows are cut to small `{threadId, seq, kind, text}` records here and handed to the
 * worker once per event-loop turn, so an append never waits for the index; the worker writes them in one
 * transaction. Requests go in order after the rows queued before them.
 */
export async function openSqliteSearchIndex(options: SqliteSearchIndexOptions): Promise<SearchIndex> {
  const file = path.resolve(options.dataDir, SEARCH_INDEX_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  const unlisten = searchWorkerThread.listen(file, options.log);
  let docs: SearchDoc[] = [];
  const heads = new Map<string, number>();
  let scheduled = false;
  const send = () => {
    scheduled = false;
    if (heads.size === 0) return;
    searchWorkerThread.tell({ file, op: 'add', docs, heads: [...heads] });
    docs = [];
    heads.clear();
  };
  const ask = (request: Parameters<typeof searchWorkerThread.ask>[0]) => {
    send();
    return searchWorkerThread.ask(request);
  };

  return {
    add(rows) {
      for (const row of rows) {
        const doc = searchDocOf(row);
        if (doc) docs.push(doc);
        heads.set(row.threadId, Math.max(row.seq, heads.get(row.threadId) ?? 0));
      }
      if (!scheduled && heads.size > 0) {
        scheduled = true;
        setImmediate(send);
      }
    },
    async removeThread(threadId) {
      await ask({ file, op: 'remove', threadId });
    },
    heads: async () => (await ask({ file, op: 'heads' })) as Map<string, number>,
    search: async (query) => (await ask({ file, op: 'search', query })) as RowHit[],
    async flushed() {
      await ask({ file, op: 'flush' });
    },
    async close() {
      await ask({ file, op: 'close' });
      unlisten();
    },
  };
}
