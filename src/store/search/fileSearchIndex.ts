import { createReadStream } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { replaceFile } from '../replaceFile';
import type { StoredThreadEvent } from '../eventStore';
import { createInvertedIndex } from './invertedIndex';
import type { SearchIndex } from './searchIndex';
import { searchDocOf, type SearchDoc } from './searchableText';

/** The index's file in the data dir; its first line names the format, so another format reads as torn. */
export const SEARCH_INDEX_FILE = path.join('search', 'rows.jsonl');
const HEADER = JSON.stringify({ searchIndex: 1 });
/** Rows indexed per event-loop turn (about 10–20 ms of work with pi-sized answers on this machine). */
const FLUSH_CHUNK_ROWS = 500;

/** One line of the file: a row's text (`d`), how far threads are indexed (`h`), or a thread removed (`x`). */
type Line = { d: [string, number, SearchDoc['kind'], string] } | { h: [string, number][] } | { x: string };

export interface FileSearchIndexOptions {
  dataDir: string;
  log(message: string): void;
}

/**
 * The embedded engine: an inverted index in memory, kept as an append-only log in the data dir so a start
 * reads it back instead of re-reading every thread. Stored rows are queued and indexed in a batch on the next
 * turn of the event loop (one file write per batch, not fsynced: the file is a copy of the store, and a
 * write lost to a crash is caught up from the store at the next start). A file that is missing, of another
 * format, or with a line that does not parse is started over empty; the start's catch-up refills it.
 */
export async function openFileSearchIndex(options: FileSearchIndexOptions): Promise<SearchIndex> {
  const file = path.join(options.dataDir, SEARCH_INDEX_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  let memory = createInvertedIndex();
  const heads = new Map<string, number>();
  let removals = 0;
  const loaded = await readLog(file, (line) => {
    if ('d' in line) memory.add({ threadId: line.d[0], seq: line.d[1], kind: line.d[2], text: line.d[3] });
    else if ('h' in line) for (const [threadId, seq] of line.h) heads.set(threadId, Math.max(seq, heads.get(threadId) ?? 0));
    else {
      removals++;
      memory.removeThread(line.x);
      heads.delete(line.x);
    }
  });
  if (loaded !== 'whole') {
    // Nothing read counts: the start's catch-up rebuilds it all from the store.
    memory = createInvertedIndex();
    heads.clear();
    if (loaded === 'torn') options.log(`search index ${file} is torn: rebuilding it from the store`);
    await replaceFile(file, `${HEADER}\n`);
  } else if (removals > 0) {
    // A deleted thread's words leave the disk too: the log is rewritten without them at the next start.
    await replaceFile(file, logOf(memory.docs(), heads));
  }

  let pending: StoredThreadEvent[] = [];
  let writes: Promise<void> = Promise.resolve();
  let scheduled: Promise<void> | undefined;
  let failed = false;
  const write = (lines: Line[]) => {
    if (lines.length === 0) return;
    const text = lines.map((line) => `${JSON.stringify(line)}\n`).join('');
    writes = writes
      .then(() => appendFile(file, text))
      .catch((error: unknown) => {
        if (!failed) options.log(`search index ${file} not written (${String(error)}); searches still answer, the next start rebuilds it`);
        failed = true;
      });
  };
  const flush = () => {
    scheduled = undefined;
    // A chunk per event-loop turn: a burst of rows is indexed between appends, never in one long block of them.
    const rows = pending.splice(0, FLUSH_CHUNK_ROWS);
    if (pending.length > 0) schedule();
    const lines: Line[] = [];
    const batchHeads = new Map<string, number>();
    for (const row of rows) {
      const doc = searchDocOf(row);
      if (doc) {
        memory.add(doc);
        lines.push({ d: [doc.threadId, doc.seq, doc.kind, doc.text] });
      }
      batchHeads.set(row.threadId, Math.max(row.seq, batchHeads.get(row.threadId) ?? 0));
    }
    for (const [threadId, seq] of batchHeads) heads.set(threadId, Math.max(seq, heads.get(threadId) ?? 0));
    lines.push({ h: [...batchHeads] });
    write(lines);
  };
  const schedule = () => {
    scheduled ??= new Promise((resolve) => setImmediate(resolve)).then(() => (pending.length > 0 ? flush() : undefined));
  };
  const flushed = async () => {
    while (pending.length > 0) flush();
    await writes;
  };

  return {
    add(rows) {
      if (rows.length === 0) return;
      pending.push(...rows);
      schedule();
    },
    async removeThread(threadId) {
      while (pending.length > 0) flush();
      memory.removeThread(threadId);
      heads.delete(threadId);
      write([{ x: threadId }]);
      await writes;
    },
    async heads() {
      await flushed();
      return new Map(heads);
    },
    async search(query) {
      return memory.search(query);
    },
    flushed,
    async close() {
      await flushed();
    },
  };
}

/** Feeds each line of the log to `apply`: 'whole' when every line parsed, 'missing' or 'torn' otherwise. */
async function readLog(file: string, apply: (line: Line) => void): Promise<'whole' | 'missing' | 'torn'> {
  const stream = createReadStream(file, 'utf8');
  const opened = new Promise<boolean>((resolve) => {
    stream.once('open', () => resolve(true));
    stream.once('error', () => resolve(false));
  });
  if (!(await opened)) return 'missing';
  let first = true;
  try {
    for await (const text of createInterface({ input: stream, crlfDelay: Infinity })) {
      if (first) {
        first = false;
        if (text !== HEADER) return 'torn';
        continue;
      }
      apply(JSON.parse(text) as Line);
    }
  } catch {
    return 'torn';
  } finally {
    stream.destroy();
  }
  return first ? 'torn' : 'whole';
}

/** The whole log of what is indexed now: the header, every row, the heads. */
function logOf(docs: Iterable<SearchDoc>, heads: ReadonlyMap<string, number>): string {
  const lines = [HEADER];
  for (const doc of docs) lines.push(JSON.stringify({ d: [doc.threadId, doc.seq, doc.kind, doc.text] } satisfies Line));
  lines.push(JSON.stringify({ h: [...heads] } satisfies Line));
  return `${lines.join('\n')}\n`;
}
