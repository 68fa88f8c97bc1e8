import { closeSync, ftruncateSync, openSync, promises as fs, writeSync } from 'node:fs';
import path from 'node:path';
import type { AppendBatch } from '../../protocol/daemonLink';
import { replaceFile } from '../../store/replaceFile';

export const OUTBOX_FILE_NAME = 'link-outbox.jsonl';
const OUTBOX_MODE = 0o600;

/**
 * Batches the daemon's pipeline produced that the server has not acked yet, kept on disk so a daemon killed
 * mid-ingest sends them again when it comes back (the server stores each once: see batchApplier). One JSON
 * line per change, `{"add": batch}` or `{"ack": batchId}`; a torn last line from a crash is ignored.
 *
 * Writes are synchronous on one open descriptor: a batch must be on disk before it is sent, and an async
 * append (open, write, close on the thread pool) per batch cost the remote path ~0.1x of bench:hosts,
 * where a write into the page cache costs microseconds.
 */
export interface Outbox {
  /** `json` is `JSON.stringify(batch)` when the caller has it already (it measured the batch's size). */
  add(batch: AppendBatch, json?: string): void;
  ack(batchId: string): void;
  /** Unacked batches, oldest first. */
  pending(): AppendBatch[];
  close(): void;
}

export async function openOutbox(dataDir: string): Promise<Outbox> {
  const file = path.join(dataDir, OUTBOX_FILE_NAME);
  const pending = new Map<string, AppendBatch>();
  for (const line of (await fs.readFile(file, 'utf8').catch(() => '')).split('\n')) {
    const entry = parseLine(line);
    if (entry && 'add' in entry) pending.set(entry.add.batchId, entry.add);
    if (entry && 'ack' in entry) pending.delete(entry.ack);
  }
  // Start from a compact file: only what is still unacked. Renamed in whole, never rewritten in place: a kill
  // mid-rewrite would lose the unacked batches.
  // Thread rows, so agent output: this user's only (the data dir is 0700 too).
  await replaceFile(file, [...pending.values()].map((batch) => JSON.stringify({ add: batch }) + '\n').join(''), { mode: OUTBOX_MODE });
  const fd = openSync(file, 'a', OUTBOX_MODE);

  return {
    add(batch, json = JSON.stringify(batch)) {
      pending.set(batch.batchId, batch);
      writeSync(fd, `{"add":${json}}\n`);
    },
    ack(batchId) {
      if (!pending.delete(batchId)) return;
      // Nothing left to remember: truncating keeps the journal from growing with every batch ever sent.
      if (pending.size === 0) ftruncateSync(fd, 0);
      else writeSync(fd, JSON.stringify({ ack: batchId }) + '\n');
    },
    pending: () => [...pending.values()],
    close: () => closeSync(fd),
  };
}

function parseLine(line: string): { add: AppendBatch } | { ack: string } | undefined {
  if (line.trim() === '') return undefined;
  try {
    return JSON.parse(line) as { add: AppendBatch } | { ack: string };
  } catch {
    return undefined; // a line torn by a crash mid-write: its batch was never sent, so nothing is lost
  }
}
