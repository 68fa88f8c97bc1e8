import type { DiffFile } from '../../../protocol/hostGitCommands';
import { DiffFileCut } from './diffFiles';
import type { DiffLimits } from './diffLimits';
import type { PatchSection } from './parsePatch';
import type { RawEntry } from './parseRawEntries';

/** The files part of a `git.diff` answer (the caller adds scope, base and head). */
export interface DiffAnswer {
  files: DiffFile[];
  truncated: boolean;
}

/**
 * One diff's files sent in parts while git writes them (`git.diff` with a partialResultToken), cut as a
 * whole answer is. Files wait until `release()` says their order is final (a diff of tracked files is, once
 * no untracked file has to be merged in); `abandon()` drops them when it is not, and the caller answers whole.
 * `flush()` sends what completed since the last one: one part per chunk git wrote, a few dozen files.
 */
export class FileParts {
  private readonly cut: DiffFileCut;
  private held: DiffFile[] = [];
  private state: 'holding' | 'sending' | 'abandoned' = 'holding';

  constructor(
    limits: DiffLimits,
    private readonly send: (files: DiffFile[]) => void,
  ) {
    this.cut = new DiffFileCut(limits);
  }

  /** Takes the next file; true once it is sure to go out in a part (the reader need not keep its section). */
  add(entry: RawEntry, section: PatchSection): boolean {
    if (this.state === 'abandoned') return false;
    const file = this.cut.next(entry, section);
    if (file) this.held.push(file);
    return this.state === 'sending';
  }

  flush(): void {
    if (this.state !== 'sending' || this.held.length === 0) return;
    const files = this.held;
    this.held = [];
    this.send(files);
  }

  release(): void {
    if (this.state !== 'holding') return;
    this.state = 'sending';
    this.flush();
  }

  /** Dropped: the diff feeding it is of no more use (its git may be ended). */
  get abandoned(): boolean {
    return this.state === 'abandoned';
  }

  abandon(): void {
    this.state = 'abandoned';
    this.held = [];
  }

  /** The answer's own part: the files no part carried (the last ones), and whether anything was cut. */
  rest(): DiffAnswer {
    return { files: this.held, truncated: this.cut.truncated };
  }
}
