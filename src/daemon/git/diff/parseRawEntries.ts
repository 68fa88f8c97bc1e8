import type { DiffFile } from '../../../protocol/hostGitCommands';

/** One file pair of `git diff --raw -z`: what changed, under which names. */
export interface RawEntry {
  status: DiffFile['status'];
  path: string;
  oldPath?: string;
}

const STATUS: Record<string, DiffFile['status']> = { A: 'added', C: 'added', D: 'deleted', M: 'modified', T: 'modified', R: 'renamed' };

/**
 * The raw part of `git diff --raw -z -p` (NUL-separated, so any file name reads exactly) and where the patch
 * after it starts:
 *
 *   :100644 100644 <sha> <sha> M\0f\0:100644 100644 <sha> <sha> R100\0g\0h\0\0diff --git …
 */
export function parseRawEntries(output: string): { entries: RawEntry[]; patchStart: number } {
  const entries: RawEntry[] = [];
  let at = 0;
  const next = (): string => {
    const end = output.indexOf('\0', at);
    const token = end < 0 ? output.slice(at) : output.slice(at, end);
    at = end < 0 ? output.length : end + 1;
    return token;
  };
  while (at < output.length && output[at] === ':') {
    const meta = next();
    const letter = meta.slice(meta.lastIndexOf(' ') + 1, meta.lastIndexOf(' ') + 2);
    const status = STATUS[letter] ?? 'modified';
    if (letter === 'R' || letter === 'C') {
      const oldPath = next();
      const path = next();
      entries.push(letter === 'R' ? { status, path, oldPath } : { status, path });
    } else {
      entries.push({ status, path: next() });
    }
  }
  if (output[at] === '\0') at += 1; // the separator git writes between the raw list and the patch
  return { entries, patchStart: at };
}
