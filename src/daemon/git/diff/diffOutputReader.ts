import { StringDecoder } from 'node:string_decoder';
import { EMPTY_SECTION } from './diffFiles';
import { PatchParser, type PatchSection } from './parsePatch';
import { RawEntryReader, type RawEntry } from './parseRawEntries';

/** One `git diff --raw -z -p` read: its file pairs and their patch sections, in git's order. */
export interface ParsedDiff {
  entries: RawEntry[];
  sections: PatchSection[];
}

/**
 * Told of each file as soon as its patch section is complete (the next one began, or git ended); answers
 * whether it took the section for good, so the reader lets go of it (a section sent on is garbage within the
 * chunk that read it, not a 4 MB diff's worth of lines kept to its end and promoted on the way).
 */
export type OnDiffFile = (entry: RawEntry, section: PatchSection) => boolean;

/**
 * Reads `git diff --raw -z -p` chunk by chunk while git writes it: the raw list first, then the patch a line
 * at a time. Parsing alongside git instead of after it is what keeps a 50k-line diff close to git's own time
 * (bench:review): the reading is done when git is, and with `onFile` each file can be sent on before then.
 */
export class DiffOutputReader {
  private readonly decoder = new StringDecoder('utf8');
  private readonly raw = new RawEntryReader();
  private readonly patch = new PatchParser();
  private inPatch = false;
  private pending = '';
  private told = 0;

  constructor(private readonly onFile?: OnDiffFile) {}

  push(chunk: Buffer): void {
    this.readText(this.pending + this.decoder.write(chunk));
    // The last section read may still grow: only those before it are complete.
    this.tell(this.patch.sections.length - 1);
  }

  end(): ParsedDiff {
    const rest = this.pending + this.decoder.end();
    this.readText(this.inPatch && rest !== '' && !rest.endsWith('\n') ? `${rest}\n` : rest);
    this.tell(this.raw.entries.length);
    return { entries: this.raw.entries, sections: this.patch.sections };
  }

  private tell(upTo: number): void {
    if (!this.onFile) return;
    const { entries } = this.raw;
    const { sections } = this.patch;
    for (; this.told < Math.min(upTo, entries.length); this.told++) {
      if (this.onFile(entries[this.told]!, sections[this.told] ?? EMPTY_SECTION) && this.told < sections.length)
        sections[this.told] = EMPTY_SECTION;
    }
  }

  private readText(text: string): void {
    let at = 0;
    if (!this.inPatch) {
      const read = this.raw.read(text, at);
      at = read.at;
      this.inPatch = read.patchStarts;
    }
    if (this.inPatch) {
      for (let newline = text.indexOf('\n', at); newline >= 0; newline = text.indexOf('\n', at)) {
        this.patch.line(text, at, newline);
        at = newline + 1;
      }
    }
    this.pending = text.slice(at);
  }
}
