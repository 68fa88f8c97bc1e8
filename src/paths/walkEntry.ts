import type { PathKind } from '../protocol/hostFiles';
import type { FoldedText } from './foldForMatch';

/** One listed file or directory of a walk (rules 1–3), before ranking. */
export interface WalkEntry {
  readonly kind: PathKind;
  /** Relative to the root, `/`-separated. */
  readonly path: string;
  readonly name: string;
  /**
   * Folded forms, filled on first use by the ranker. Entries outlive one search in the walk cache, so a
   * name is folded once per process instead of once per keystroke.
   */
  foldedName?: FoldedText;
  foldedPath?: FoldedText;
}

/** Everything a walk found under `root`; order is unspecified (ranking defines it). */
export interface Listing {
  readonly root: string;
  readonly entries: readonly WalkEntry[];
}
