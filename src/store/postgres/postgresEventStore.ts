import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { HeadMoved, type ConditionalAppend } from '../conditionalAppend';
import type { EventStore, ListEventsOptions, NewThreadEvent, StoredThreadEvent } from '../eventStore';
import { storedRowOf } from '../../protocol/threadEvents';

/**
 * Channel every append announces its threads on (`<origin> <first seq> <last seq> <thread id>`), sent at
 * commit; a thread's delete announces `<origin> 0 0 <thread id>`.
 */
export const EVENTS_CHANNEL = 'ats_events';

/** SQLSTATE that `ats_append_events` raises when a head is not where `appendAt` expected it. */
const HEAD_MOVED = 'AT409';

export interface PostgresEventStoreOptions {
  pool: Pool;
  /** Names the writer in notifications, so a replica can skip the rows it published itself. */
  origin: string;
  newId?(): string;
  /** Closes the pool with the store (the default); false when the pool is shared (registry, presence). */
  ownsPool?: boolean;
}

export interface PostgresEventStore extends EventStore, ConditionalAppend {
  /** Narrows the port's ObservableInput: resolves once the rows are committed. */
  append(events: readonly NewThreadEvent[]): Promise<StoredThreadEvent[]>;
  /** The last seq of each thread named (0 for one never written), in one query. */
  lastSeqs(threadIds: readonly string[]): Promise<Map<string, number>>;
}

interface StoredRowSql {
  thread_id: string;
  seq: number;
  id: string;
  type: string;
  turn_id: string | null;
  scope: unknown;
  data: unknown;
  created_at: string;
}

const SELECT_ROWS = `SELECT thread_id, seq, id, type, turn_id, scope, data,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at FROM thread_events`;

/**
 * The EventStore port on PostgreSQL, for several servers sharing one database. Seqs are assigned by the
 * database (`ats_append_events`, migration 001): the thread's head row is bumped in the same statement that
 * inserts the rows, so writers on different replicas interleave gaplessly; an append resolves after commit.
 * In this process, appends that share a thread run one after another (the order they were called is the
 * order of their seqs); appends of other threads run side by side on the pool.
 */
export function createPostgresEventStore(options: PostgresEventStoreOptions): PostgresEventStore {
  const { pool, origin } = options;
  const newId = options.newId ?? randomUUID;
  /** The last append of each thread still running here; the next one of that thread waits for it. */
  const tails = new Map<string, Promise<unknown>>();
  let closed = false;

  const appendNow = async (
    events: readonly NewThreadEvent[],
    firstSeqs?: Readonly<Record<string, number>>,
  ): Promise<StoredThreadEvent[]> => {
    const counts = new Map<string, number>();
    const places: number[] = [];
    const ids: string[] = [];
    const rows = events.map((event) => {
      const place = (counts.get(event.threadId) ?? 0) + 1;
      counts.set(event.threadId, place);
      places.push(place);
      const id = newId();
      ids.push(id);
      return {
        t: event.threadId,
        k: place,
        i: id,
        ty: event.type,
        tu: event.turnId,
        sc: JSON.stringify(event.scope),
        d: JSON.stringify(event.data),
      };
    });
    const heads = [...counts].map(([t, n]) => ({ t, n, e: firstSeqs?.[t] ?? null }));
    let answer;
    try {
      answer = await pool.query<{ thread_id: string; first_seq: number; created_ms: string }>(
        'SELECT thread_id, first_seq, created_ms FROM ats_append_events($1, $2, $3)',
        [JSON.stringify(rows), JSON.stringify(heads), origin],
      );
    } catch (error) {
      throw headMovedOf(error) ?? error;
    }
    const firsts = new Map(answer.rows.map((row) => [row.thread_id, row.first_seq]));
    const createdAt = new Date(Number(answer.rows[0]!.created_ms)).toISOString();
    return events.map((event, i) => storedRowOf(event, ids[i]!, firsts.get(event.threadId)! + places[i]! - 1, createdAt));
  };

  const enqueue = (events: readonly NewThreadEvent[], firstSeqs?: Readonly<Record<string, number>>): Promise<StoredThreadEvent[]> => {
    if (closed) return Promise.reject(new Error('The event store is closed'));
    if (events.length === 0) return Promise.resolve([]);
    const threadIds = [...new Set(events.map((event) => event.threadId))];
    const before = threadIds.map((threadId) => tails.get(threadId)).filter((tail) => tail !== undefined);
    const appended = Promise.all(before).then(() => appendNow(events, firstSeqs));
    const tail = appended.catch(() => undefined);
    for (const threadId of threadIds) tails.set(threadId, tail);
    void tail.then(() => {
      for (const threadId of threadIds) if (tails.get(threadId) === tail) tails.delete(threadId);
    });
    return appended;
  };

  return {
    append: (events) => enqueue(events),
    appendAt: (events, firstSeqs) => enqueue(events, firstSeqs),
    async list(threadId: string, { afterSeq = 0, limit }: ListEventsOptions = {}) {
      const { rows } = await pool.query<StoredRowSql>(
        `${SELECT_ROWS} WHERE thread_id = $1 AND seq > $2 ORDER BY seq${limit === undefined ? '' : ' LIMIT $3'}`,
        limit === undefined ? [threadId, afterSeq] : [threadId, afterSeq, limit],
      );
      return rows.map(rowOf);
    },
    async lastSeq(threadId: string) {
      await tails.get(threadId);
      const { rows } = await pool.query<{ last_seq: number }>('SELECT last_seq FROM thread_heads WHERE thread_id = $1', [threadId]);
      return rows[0]?.last_seq ?? 0;
    },
    async lastSeqs(threadIds) {
      const { rows } = await pool.query<{ thread_id: string; last_seq: number }>(
        'SELECT thread_id, last_seq FROM thread_heads WHERE thread_id = ANY($1)',
        [threadIds],
      );
      const heads = new Map<string, number>(threadIds.map((threadId) => [threadId, 0]));
      for (const row of rows) heads.set(row.thread_id, row.last_seq);
      return heads;
    },
    async deleteThread(threadId: string) {
      await tails.get(threadId);
      // Rows and head in one transaction: another replica reads the whole thread or none of it. The space
      // comes back to the table at its next (auto)vacuum.
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('DELETE FROM thread_events WHERE thread_id = $1', [threadId]);
        await client.query('DELETE FROM thread_heads WHERE thread_id = $1', [threadId]);
        await client.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, `${origin} 0 0 ${threadId}`]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all(tails.values());
      if (options.ownsPool !== false) await pool.end();
    },
  };
}

function rowOf(row: StoredRowSql): StoredThreadEvent {
  // Our own table: every row was checked on its way in, so its type and data belong together.
  return {
    id: row.id,
    threadId: row.thread_id,
    seq: row.seq,
    type: row.type,
    turnId: row.turn_id,
    scope: row.scope,
    data: row.data,
    createdAt: row.created_at,
  } as StoredThreadEvent;
}

function headMovedOf(error: unknown): HeadMoved | undefined {
  const { code, detail } = error as { code?: string; detail?: string };
  if (code !== HEAD_MOVED || !detail) return undefined;
  const { threadId, expectedFirstSeq, storedLastSeq } = JSON.parse(detail) as {
    threadId: string;
    expectedFirstSeq: number;
    storedLastSeq: number;
  };
  return new HeadMoved(threadId, expectedFirstSeq, storedLastSeq);
}
