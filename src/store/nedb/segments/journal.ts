import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fsyncPath } from '../../fsyncPath';

const JOURNAL_PATTERN = /^journal-(\d+)\.log$/;

interface QueuedLines {
  bytes: Buffer;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The store's write-ahead journal: every committed group of rows is appended to one file and fsynced once
 * before any of its appends is acked, whatever the number of threads it touched. The threads' own files are
 * written without an fsync; a checkpoint (see `sealForCheckpoint`) later fsyncs the files written since the
 * journal file was started, and only then deletes it. So a row acked is always in a synced journal or in a
 * synced thread file, and one fsync per group pays for durability instead of one per thread file.
 */
export class Journal {
  private handle: fs.FileHandle | undefined;
  /** Appends waiting for the write in progress; written together by the next one (`coalesce`). */
  private queue: QueuedLines[] = [];
  private writing: Promise<void> | undefined;
  private current: string;
  /**
   * The current file, created and made durable (with its folder entry) before any commit needs it: the first
   * fsync into a new file also commits its creation, ~10 ms on ext4 against <1 ms for an append.
   */
  private created: Promise<fs.FileHandle | undefined> | undefined;
  /**
   * The file after the current one, created the same way while the current one is written. A checkpoint
   * switches to it at once: created only at the switch, the commit that started the checkpoint waited for its
   * creation and two fsyncs (a stall of the ack path every checkpoint, issue 27's `bench:acp` tail).
   */
  private spare: { file: string; created: Promise<fs.FileHandle | undefined> };
  /** Bytes in the current journal file. */
  bytes = 0;

  private constructor(
    private readonly eventsDir: string,
    private sequence: number,
    private readonly coalesce: boolean,
  ) {
    this.current = journalPath(eventsDir, sequence);
    this.created = this.createAhead(this.current);
    this.spare = this.spareAfter(sequence);
  }

  /**
   * Starts after the highest journal file on disk (the ones replayed at open and deleted). `coalesce`: the
   * appends that queue while one is being written share the next write and fsync (`batch`); without it each
   * append has its own (`always`).
   */
  static async open(eventsDir: string, { coalesce = true }: { coalesce?: boolean } = {}): Promise<Journal> {
    const existing = await journalFilesIn(eventsDir);
    const last = existing.length === 0 ? 0 : Number(JOURNAL_PATTERN.exec(path.basename(existing[existing.length - 1]!))![1]);
    return new Journal(eventsDir, last + 1, coalesce);
  }

  /**
   * Appends a commit's lines; resolves once they are fsynced. Lines are written in the order of the calls.
   * The caller need not wait for one append before calling the next: its next commit is prepared while this
   * one's fsync runs, and commits prepared meanwhile share the following fsync.
   */
  append(lines: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ bytes: Buffer.from(lines), resolve, reject });
      this.writing ??= this.writeQueued();
    });
  }

  private async writeQueued(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.coalesce ? this.queue.splice(0) : this.queue.splice(0, 1);
      try {
        await this.writeAndSync(batch.length === 1 ? batch[0]!.bytes : Buffer.concat(batch.map((queued) => queued.bytes)));
        for (const queued of batch) queued.resolve();
      } catch (error) {
        for (const queued of batch) queued.reject(error);
      }
    }
    this.writing = undefined;
  }

  private async writeAndSync(bytes: Buffer): Promise<void> {
    this.handle ??= (await this.takeCreated()) ?? (await fs.open(this.current, 'a'));
    try {
      await this.handle.write(bytes);
      await this.handle.datasync();
    } catch (error) {
      // A failed write may have left half a line; the next commit starts a file of its own rather than glue
      // its first line to that half. The failed file stays until the next open replays it.
      await this.handle.close().catch(() => undefined);
      this.handle = undefined;
      this.bytes = 0;
      await this.takeCreated().then((unused) => unused?.close()); // never written: replayed empty
      this.switchToSpare();
      throw error;
    }
    this.bytes += bytes.length;
  }

  /**
   * Ends the current journal file (the next append starts a new one) once the appends called so far are
   * written, and returns its path, for a checkpoint to delete once the thread files written meanwhile are
   * synced. Call between commits.
   */
  async seal(): Promise<string | undefined> {
    while (this.writing) await this.writing; // appends already called belong to this file
    if (!this.handle) return undefined;
    const sealed = this.current;
    const handle = this.handle;
    this.handle = undefined;
    this.bytes = 0;
    this.switchToSpare();
    await handle.close();
    return sealed;
  }

  /** Closes the journal once nothing appends any more: files created ahead and never written are removed. */
  async close(): Promise<void> {
    while (this.writing) await this.writing;
    const unused = await this.takeCreated();
    await this.handle?.close();
    this.handle = undefined;
    if (unused) {
      await unused.close();
      await fs.rm(this.current, { force: true });
    }
    const spare = await this.spare.created;
    await spare?.close();
    await fs.rm(this.spare.file, { force: true });
  }

  /** The next file becomes the current one (its creation likely done), and the one after it the spare. */
  private switchToSpare(): void {
    this.current = this.spare.file;
    this.created = this.spare.created;
    this.spare = this.spareAfter(++this.sequence);
  }

  private spareAfter(sequence: number): { file: string; created: Promise<fs.FileHandle | undefined> } {
    const file = journalPath(this.eventsDir, sequence + 1);
    return { file, created: this.createAhead(file) };
  }

  private createAhead(file: string): Promise<fs.FileHandle | undefined> {
    return (async () => {
      const handle = await fs.open(file, 'a');
      try {
        await handle.sync();
        await fsyncPath(this.eventsDir);
        return handle;
      } catch {
        await handle.close();
        return undefined; // the commit that needs the file opens it itself
      }
    })().catch(() => undefined);
  }

  private async takeCreated(): Promise<fs.FileHandle | undefined> {
    const created = await this.created;
    this.created = undefined;
    return created;
  }
}

function journalPath(eventsDir: string, sequence: number): string {
  return path.join(eventsDir, `journal-${String(sequence).padStart(10, '0')}.log`);
}

/** Journal files on disk, oldest first. */
export async function journalFilesIn(eventsDir: string): Promise<string[]> {
  const names = (await fs.readdir(eventsDir)).filter((name) => JOURNAL_PATTERN.test(name)).sort();
  return names.map((name) => path.join(eventsDir, name));
}
