import type { DiffFile } from '../../../protocol/hostGitCommands';

/** One file pair of `git diff --raw -z`: what changed, under which names. */
export interface RawEntry {
  status: DiffFile['status'];
  path: string;
  oldPath?: string;
}

const STATUS: Record<string, DiffFile['status']> = { A: 'added', C: 'added', D: 'deleted', M: 'modified', T: 'modified', R: 'renamed' };

/**
 * Reads the raw part of `git diff --raw -z -p` (NUL-separated, so any file name reads exactly) token by token
 * as git writes it, and says where the patch after it starts:
 *
 *   :100644 100644 <sha> <sha> M\0f\0:100644 100644 <sha> <sha> R100\0g\0h\0\0diff --git …
 */
export class RawEntryReader {
  readonly entries: RawEntry[] = [];
  private meta: { status: DiffFile['status']; renamed: boolean; paths: string[]; wanted: number } | undefined;

  /**
   * Reads the whole tokens of `text` from `at`; answers where it stopped and whether the patch starts there
   * (the separator past the last entry is read). Not done: a token was cut off; call again with more text.
   */
  read(text: string, at: number): { at: number; patchStarts: boolean } {
    for (;;) {
      if (!this.meta) {
        if (at >= text.length) return { at, patchStarts: false };
        if (text[at] !== ':') return { at: text[at] === '\0' ? at + 1 : at, patchStarts: true };
      }
      const end = text.indexOf('\0', at);
      if (end < 0) return { at, patchStarts: false };
      const token = text.slice(at, end);
      at = end + 1;
      if (this.meta) this.pathToken(token);
      else this.metaToken(token);
    }
  }

  private metaToken(meta: string): void {
    const letter = meta.slice(meta.lastIndexOf(' ') + 1, meta.lastIndexOf(' ') + 2);
    const copied = letter === 'C';
    const renamed = letter === 'R';
    this.meta = { status: STATUS[letter] ?? 'modified', renamed, paths: [], wanted: renamed || copied ? 2 : 1 };
  }

  private pathToken(path: string): void {
    const meta = this.meta!;
    meta.paths.push(path);
    if (meta.paths.length < meta.wanted) return;
    const [first, second] = meta.paths as [string, string | undefined];
    if (second === undefined) this.entries.push({ status: meta.status, path: first });
    else this.entries.push(meta.renamed ? { status: meta.status, path: second, oldPath: first } : { status: meta.status, path: second });
    this.meta = undefined;
  }
}
