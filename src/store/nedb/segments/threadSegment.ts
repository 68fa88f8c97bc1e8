import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { errorMessageOf } from '../../../protocol/errorMessages';
import type { EventDocument } from '../eventDocument';
import { dropTornLastLine } from '../../tornTail';
import { readLastLine } from './lastLine';
import { LineIndex } from './lineIndex';
import type { SegmentHead } from './segmentIndex';

/**
 * One thread's rows: a file of nedb documents (one JSON line each, in seq order, only ever appended to), read
 * a page at a time from a line mark just before the page (issue 31: memory follows what is read, not how long
 * the thread is). Everything that touches the file runs through `exclusive`, one at a time per thread, so a
 * read never sees half an append and two appends never interleave; different threads proceed in parallel.
 */
export class ThreadSegment {
  /** Known once the file was looked at (or the index vouched for it); undefined after a failed write. */
  head: SegmentHead | undefined;
  /**
   * The last seq whose append was acked: rows are in the file before their group's journal fsync, and readers
   * must not see a row its writer has not been told is stored (nor one a crash could still take).
   */
  ackedSeq = 0;
  /**
   * Set once a read found a line out of place (a damaged line, or one a migration wrote twice): line N no
   * longer holds seq N + 1, so reads scan the file instead (`scanRange`). Cleared when the file is removed.
   */
  irregular = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** Kept open between writes while the thread is written often (see writeHandles.ts); opened to append. */
  private handle: fs.FileHandle | undefined;
  /**
   * Lines appended in memory, not yet in the file: with a journal, a commit's durability is the journal's
   * fsync, so the thread's own file is written once per checkpoint (`flush`) instead of once per commit.
   * Anything that reads the file flushes first.
   */
  private pending: Buffer[] = [];
  /** Where the file's lines start, learnt by reads (`readRange`). */
  readonly lines = new LineIndex();
  /** Set when a failed write could not be undone: the thread refuses work until a restart. */
  private broken: Error | undefined;

  constructor(
    readonly threadId: string,
    readonly filePath: string,
  ) {}

  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    // Not `run.catch(…)`: that would hold the last result (a batch of rows) for as long as the thread lives.
    this.queue = run.then(noop, noop);
    return run;
  }

  /**
   * The thread's last seq and file size without loading it: the index's entry while the file still has its
   * size, else the file's last line (after cutting a torn one). Call inside `exclusive`.
   */
  async ensureHead(indexed: SegmentHead | undefined): Promise<SegmentHead> {
    if (this.head) return this.head;
    this.head = await this.headOnDisk(indexed);
    // What an earlier process left on disk counts as acked (this one acks only what it writes itself).
    this.ackedSeq = Math.max(this.ackedSeq, this.head.lastSeq);
    return this.head;
  }

  private async headOnDisk(indexed: SegmentHead | undefined): Promise<SegmentHead> {
    const size = await fileSize(this.filePath);
    if (size === 0) return { lastSeq: 0, bytes: 0 };
    if (indexed && indexed.bytes === size) return { ...indexed };
    await dropTornLastLine(this.filePath);
    const { line, size: repairedSize } = await readLastLine(this.filePath);
    const seq = line === undefined ? 0 : seqOf(line);
    return { lastSeq: seq ?? (await highestSeqIn(this.filePath)), bytes: repairedSize };
  }

  /**
   * Appends rows (their documents' lines, in seq order, ending with `lastSeq`) after the head: to the file
   * now, or with `defer` to memory until the next `flush` (the caller's journal holds them meanwhile). Never
   * fsynced here. Call inside `exclusive` after `ensureHead`. Returns whether the file is new (its folder
   * entry needs a sync too).
   */
  async write(lines: string, lastSeq: number, { defer = false }: { defer?: boolean } = {}): Promise<boolean> {
    if (this.broken) throw this.broken;
    const head = this.head!;
    const bytes = Buffer.from(lines);
    this.pending.push(bytes);
    this.head = { lastSeq, bytes: head.bytes + bytes.length };
    if (!defer) await this.flush({ keepOpen: true });
    return head.bytes === 0;
  }

  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** Drops lines that could not be written and were never acked (a failed write without a journal). */
  discardPending(): void {
    this.pending = [];
  }

  /**
   * Writes the lines held in memory to the file. `keepOpen` leaves the file open for the next write (the
   * caller then hands the thread to its write-handle LRU, which closes it); otherwise a handle opened here is
   * closed again. Call inside `exclusive`.
   */
  async flush({ keepOpen = false }: { keepOpen?: boolean } = {}): Promise<void> {
    if (this.broken) throw this.broken;
    if (this.pending.length === 0) return;
    const openedHere = !this.handle;
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    const fileBytes = this.head!.bytes - bytes.length;
    try {
      if (!this.handle) {
        if (fileBytes === 0) await fs.mkdir(path.dirname(this.filePath), { recursive: true });
        this.handle = await fs.open(this.filePath, 'a');
      }
      await this.handle.write(bytes);
      this.pending = [];
      if (openedHere && !keepOpen) await this.closeHandle();
    } catch (error) {
      // The lines stay in memory (acked ones are in the journal too) and the file is cut back to where they
      // start, so the next flush writes them whole. If even that fails, the thread refuses work: guessing its
      // head from a file that lacks acked rows would hand their seqs out again. A restart replays the journal.
      await this.closeHandle().catch(() => undefined);
      await fs.truncate(this.filePath, fileBytes).catch((cut: unknown) => {
        if ((cut as NodeJS.ErrnoException).code !== 'ENOENT' || fileBytes !== 0)
          this.broken = new Error(
            `${this.filePath} could not be written (${errorMessageOf(error)}); restart to recover it from the journal`,
          );
      });
      throw error;
    }
  }

  /** Call inside `exclusive` (or once nothing writes any more). */
  async closeHandle(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /**
   * Rows `afterSeq + 1 … lastWanted` read from the file: line N holds seq N + 1, and the line index starts the
   * read at most a mark's span (LINES_PER_MARK lines, BYTES_PER_MARK bytes) before the page, so the cost is the
   * page, not the thread. A file where that does not hold (`irregular`) is scanned instead, for as many rows
   * up to `lastSeq` (a seq a damaged line took leaves a gap the page reads past). Call inside `exclusive`
   * after `ensureHead`.
   */
  async readRange(afterSeq: number, lastWanted: number, lastSeq = lastWanted): Promise<EventDocument[]> {
    if (lastWanted <= afterSeq) return [];
    await this.flush();
    if (!this.irregular) {
      const lines = await this.lines.readLines(this.filePath, afterSeq, lastWanted - 1);
      const page: EventDocument[] = [];
      for (const line of lines) {
        const document = parseDocument(line);
        if (document?.seq !== afterSeq + page.length + 1) break;
        page.push(document);
      }
      if (page.length === lastWanted - afterSeq) return page;
      this.irregular = true;
    }
    return this.scanRange(afterSeq, lastSeq, lastWanted - afterSeq);
  }

  /**
   * The first `limit` rows after `afterSeq` up to `lastSeq`, read by a scan of the whole file as nedb would
   * load it (a damaged line skipped, a line written twice counted once: the later one), holding only about
   * twice the page: slow, but only for a damaged file, and never the thread in memory.
   */
  private async scanRange(afterSeq: number, lastSeq: number, limit: number): Promise<EventDocument[]> {
    let kept = new Map<string, EventDocument>();
    const lowest = () => [...kept.values()].sort((a, b) => a.seq - b.seq).slice(0, limit);
    for await (const document of documentsIn(this.filePath)) {
      if (document.seq <= afterSeq || document.seq > lastSeq) continue;
      kept.delete(document._id); // re-inserted: a later copy replaces an earlier one
      kept.set(document._id, document);
      if (kept.size > 2 * limit) kept = new Map(lowest().map((row) => [row._id, row]));
    }
    return lowest();
  }
}

/** Every parseable document of a segment file, streamed; a damaged line is skipped, as nedb skips it. */
export async function* documentsIn(filePath: string): AsyncGenerator<EventDocument> {
  const stream = createReadStream(filePath, { encoding: 'utf8' });
  try {
    for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
      const document = parseDocument(line);
      if (document) yield document;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    stream.destroy();
  }
}

export function parseDocument(line: string): EventDocument | undefined {
  if (line.trim() === '') return undefined;
  try {
    const document = JSON.parse(line) as Partial<EventDocument>;
    return typeof document._id === 'string' && typeof document.threadId === 'string' && Number.isInteger(document.seq)
      ? (document as EventDocument)
      : undefined;
  } catch {
    return undefined;
  }
}

function seqOf(line: string): number | undefined {
  return parseDocument(line)?.seq;
}

async function highestSeqIn(filePath: string): Promise<number> {
  let highest = 0;
  for await (const document of documentsIn(filePath)) highest = Math.max(highest, document.seq);
  return highest;
}

async function fileSize(filePath: string): Promise<number> {
  try {
    return (await fs.stat(filePath)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

function noop(): void {}
