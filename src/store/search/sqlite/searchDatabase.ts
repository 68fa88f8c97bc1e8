import Database from 'better-sqlite3';
import { rmSync, statSync } from 'node:fs';
import type { RowHit, RowSearch } from '../searchIndex';
import { wordsOf, type SearchDoc } from '../searchableText';
import { threadFilterOf, type ThreadFilter } from './threadFilter';

/** Bumped when the schema changes: a file of another format reads as torn and is rebuilt from the store. */
const FORMAT = 2;

/**
 * Matching rows are ranked within windows of this many, newest first (docs/search.md): a common word matches
 * most rows of a large index, and scoring all of them was what made a query slow.
 */
export const RANK_WINDOW_ROWS = 1_000;

/**
 * The schema: the texts (for excerpts) with their thread, seq and length in words, how far each thread is
 * indexed, and an FTS5 index of their words. FTS5 is given the words already cut by `wordsOf` (joined by
 * spaces) and splits them with its `ascii` tokenizer, which keeps every non-ASCII character inside a token:
 * so the words it finds are exactly the ones PostgreSQL finds (same `wordsOf` cut), whatever FTS5's own
 * Unicode tables say. The index keeps no copy of the text (`content=''`) and no positions (`detail=none`:
 * no phrase is ever asked); `contentless_delete` lets a thread's rows be removed. Each row's words end with a
 * token naming its thread (`§12`: `§` never occurs in a word), so a query keeps to some threads inside FTS5
 * instead of reading every match.
 */
const SCHEMA = `
  CREATE TABLE threads (key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, head INTEGER NOT NULL);
  CREATE TABLE removed (since INTEGER NOT NULL);
  CREATE TABLE docs (rowid INTEGER PRIMARY KEY, thread INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL,
                     text TEXT NOT NULL, length INTEGER NOT NULL, UNIQUE (thread, seq));
  CREATE VIRTUAL TABLE word_index USING fts5(words, content='', contentless_delete=1, detail=none, tokenize='ascii');
  INSERT INTO word_index (word_index, rank) VALUES ('secure-delete', 1);
  PRAGMA user_version = ${FORMAT};
`;

export interface SearchDatabase {
  /** One transaction: the searchable docs (a (thread, seq) already indexed is skipped) and the threads' heads. */
  add(docs: readonly SearchDoc[], heads: readonly (readonly [string, number])[]): void;
  removeThread(threadId: string): void;
  heads(): Map<string, number>;
  search(query: RowSearch): RowHit[];
  close(): void;
}

/**
 * Opens the index file, or starts it over empty when it is missing, of another format, cut short or fails
 * SQLite's quick check (the start's catch-up then refills it from the store). `log` hears why it was rebuilt.
 */
export function openSearchDatabase(file: string, log: (message: string) => void): SearchDatabase {
  let db: Database.Database;
  try {
    db = openChecked(file);
  } catch (error) {
    if (statSync(file, { throwIfNoEntry: false })) log(`search index ${file} is torn (${String(error)}): rebuilding it from the store`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    db = configured(new Database(file));
    db.exec(SCHEMA);
  }
  dropRemovedWords(db, file, log);
  return operationsOn(db);
}

/**
 * FTS5 keeps a removed row's words in its segments (marked deleted) until they are merged, so after threads
 * were deleted the next open merges the whole word index once: a deleted thread's words then leave the file.
 */
function dropRemovedWords(db: Database.Database, file: string, log: (message: string) => void) {
  if (!db.prepare('SELECT 1 FROM removed').get()) return;
  const started = Date.now();
  db.transaction(() => {
    db.exec(`INSERT INTO word_index (word_index) VALUES ('optimize'); DELETE FROM removed;`);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  log(`search index ${file}: deleted threads' words merged out in ${Date.now() - started} ms`);
}

function configured(db: Database.Database): Database.Database {
  // The file is a copy of the store, so commits are not fsynced: WAL keeps it whole across a process crash,
  // and what a power cut loses or tears is caught by the check at the next start and rebuilt from the store.
  // Freed pages are zeroed, so a deleted thread's texts do not linger in the file.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('secure_delete = ON');
  db.pragma('cache_size = -32000');
  return db;
}

function openChecked(file: string): Database.Database {
  const db = new Database(file, { fileMustExist: true });
  try {
    configured(db);
    db.pragma('wal_checkpoint(TRUNCATE)');
    if (db.pragma('user_version', { simple: true }) !== FORMAT) throw new Error(`not format ${FORMAT}`);
    const pages = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    if (statSync(file).size < pages) throw new Error('cut short');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(String(check));
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function operationsOn(db: Database.Database): SearchDatabase {
  const keys = new Map<string, number>();
  for (const row of db.prepare('SELECT key, id FROM threads').all() as { key: number; id: string }[]) keys.set(row.id, row.key);
  const insertThread = db.prepare('INSERT INTO threads (id, head) VALUES (?, 0)');
  const raiseHead = db.prepare('UPDATE threads SET head = max(head, ?) WHERE key = ?');
  const insertDoc = db.prepare('INSERT OR IGNORE INTO docs (thread, seq, kind, text, length) VALUES (?, ?, ?, ?, ?)');
  const insertWords = db.prepare('INSERT INTO word_index (rowid, words) VALUES (?, ?)');
  const keyOf = (threadId: string) => {
    let key = keys.get(threadId);
    if (key === undefined) keys.set(threadId, (key = Number(insertThread.run(threadId).lastInsertRowid)));
    return key;
  };
  const add = db.transaction((docs: readonly SearchDoc[], heads: readonly (readonly [string, number])[]) => {
    for (const doc of docs) {
      const key = keyOf(doc.threadId);
      const words = wordsOf(doc.text);
      const { changes, lastInsertRowid } = insertDoc.run(key, doc.seq, doc.kind, doc.text, words.length);
      if (changes === 1) insertWords.run(lastInsertRowid, `${words.join(' ')} ${threadToken(key)}`);
    }
    for (const [threadId, seq] of heads) raiseHead.run(seq, keyOf(threadId));
  });
  const removeThread = db.transaction((key: number) => {
    db.prepare('DELETE FROM word_index WHERE rowid IN (SELECT rowid FROM docs WHERE thread = ?)').run(key);
    db.prepare('DELETE FROM docs WHERE thread = ?').run(key);
    db.prepare('DELETE FROM threads WHERE key = ?').run(key);
    db.prepare('INSERT INTO removed (since) SELECT unixepoch() WHERE NOT EXISTS (SELECT 1 FROM removed)').run();
  });
  const windowOf = db.prepare(
    `SELECT d.rowid, d.length FROM (SELECT rowid FROM word_index WHERE word_index MATCH ? ORDER BY rowid DESC LIMIT ? OFFSET ?) AS m
     JOIN docs AS d ON d.rowid = m.rowid`,
  );
  const docOf = db.prepare(
    'SELECT t.id AS threadId, d.seq, d.kind, d.text FROM docs d JOIN threads t ON t.key = d.thread WHERE d.rowid = ?',
  );

  return {
    add,
    removeThread(threadId) {
      const key = keys.get(threadId);
      if (key === undefined) return;
      removeThread(key);
      keys.delete(threadId);
    },
    heads() {
      const rows = db.prepare('SELECT id, head FROM threads').all() as { id: string; head: number }[];
      return new Map(rows.map((row) => [row.id, row.head]));
    },
    search({ words, threadIds, offset, limit }) {
      const threads = threadFilterOf(threadIds, keys);
      if (words.length === 0 || threads === 'none') return [];
      const match = `(${words.map((word) => `"${word}"`).join(' ')})${matchOf(threads)}`;
      const ranked: { rowid: number; length: number }[] = [];
      // The windows that hold [offset, offset + limit) of the ranked list, each ranked on its own.
      for (let window = Math.floor(offset / RANK_WINDOW_ROWS); window * RANK_WINDOW_ROWS < offset + limit; window++) {
        const rows = windowOf.all(match, RANK_WINDOW_ROWS, window * RANK_WINDOW_ROWS) as { rowid: number; length: number }[];
        // What FTS5's bm25() says without positions: every hit holds every query word (each counted once), so
        // the shorter row is the better one; equal lengths go newest first.
        ranked.push(...rows.sort((a, b) => a.length - b.length || b.rowid - a.rowid));
        if (rows.length < RANK_WINDOW_ROWS) break;
      }
      const from = offset % RANK_WINDOW_ROWS;
      return ranked.slice(from, from + limit).map(({ rowid }) => docOf.get(rowid) as RowHit);
    },
    close() {
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  };
}

/** The token naming thread `key`, last among each of its rows' words. */
const threadToken = (key: number) => `§${key}`;

/** The part of an FTS5 query that keeps to some threads: the shorter of the list to keep and the list to leave out. */
function matchOf(threads: Exclude<ThreadFilter, 'none'>): string {
  if (threads === 'all') return '';
  const tokens = (threads.keep ?? threads.drop).map((key) => `"${threadToken(key)}"`).join(' OR ');
  return threads.keep ? ` AND (${tokens})` : ` NOT (${tokens})`;
}
