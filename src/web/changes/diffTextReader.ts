import { jsonValueEnd } from '../../protocol/jsonTextScan';
import type { DiffFile, GitDiff } from './types';

/** How the server begins a diff it writes while the host still diffs (src/server/review/streamedDiff.ts). */
const FILES_FIRST = '{"files":[';
const OPEN_BRACE = 0x7b;
const COMMA = 0x2c;

/**
 * Reads a diff answer as its text arrives: each file as soon as its object is complete, so the Changes view
 * draws the first files while the rest is still on its way (bench:changes). Only the text not read yet is
 * kept. An answer written whole (its keys in another order: a small diff, a screenful) is read at its end.
 */
export class DiffTextReader {
  readonly files: DiffFile[] = [];
  private pending = '';
  private inFiles: boolean | undefined;

  /**
   * Takes the next piece of text (may be empty); answers the files it completed, at most `max` of them: the
   * rest stay pending for the next push, so a first screen is drawn before a whole answer that came at once
   * is read.
   */
  push(chunk: string, max = Infinity): DiffFile[] {
    this.pending += chunk;
    if (this.inFiles === undefined) {
      if (this.pending.length < FILES_FIRST.length) return [];
      this.inFiles = this.pending.startsWith(FILES_FIRST);
      if (this.inFiles) this.pending = this.pending.slice(FILES_FIRST.length);
    }
    if (!this.inFiles) return [];
    const found: DiffFile[] = [];
    let at = 0;
    while (found.length < max) {
      // The comma between two files may come with either of them.
      if (this.pending.charCodeAt(at) === COMMA) at++;
      if (this.pending.charCodeAt(at) !== OPEN_BRACE) break;
      const end = jsonValueEnd(this.pending, at);
      if (end < 0) break;
      found.push(JSON.parse(this.pending.slice(at, end)) as DiffFile);
      at = end;
    }
    this.pending = this.pending.slice(at);
    this.files.push(...found);
    return found;
  }

  /** The whole answer, once its text ended. */
  end(): GitDiff {
    if (!this.inFiles) return JSON.parse(this.pending) as GitDiff;
    // What is left is `],"scope":…}`: the answer's other fields.
    const rest = JSON.parse(`{${this.pending.slice(this.pending.indexOf(',') + 1)}`) as Omit<GitDiff, 'files'>;
    return { ...rest, files: this.files };
  }
}
