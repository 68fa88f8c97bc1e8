import type { Signal } from '@preact/signals';
import type { TurnStatus } from '../api/types';
import type { ApprovalModel, PlanModel } from './approvals';

/* What the transcript is made of: the models the page renders, one signal per part that changes. */

/** Any item the log may carry, read leniently: new item types show as generic tool calls. */
export interface ItemShape {
  type: string;
  id: string;
  [field: string]: unknown;
}

/**
 * One item of a turn. Its streamed text and output are signals of their own, so a delta re-renders only the
 * component that shows this item (issue 15: no re-render of the whole transcript while text streams).
 */
export interface ItemModel {
  kind: 'item';
  key: string;
  item: Signal<ItemShape>;
  text: Signal<string>;
  output: Signal<string>;
}

export interface NoteModel {
  /** `service`: what the user had the service do to the thread's work (a commit, a push, a fork; serviceNotes.ts). */
  kind: 'error' | 'custom' | 'service';
  key: string;
  title: string;
  text: string;
  /** The same error said again in a row (an agent that keeps failing to start): shown once, with the count. */
  repeats?: number;
}

/**
 * A prompt the agent never took (no key, no agent): its turn holds only the prompt and failed (issue 29). The
 * same prompt refused again right after (a Retry) updates this one entry instead of adding another.
 */
export interface RefusedPrompt {
  prompt: string;
  attempts: number;
}

export type TurnEntry = ItemModel | NoteModel | ApprovalModel | PlanModel;

export interface TurnModel {
  kind: 'turn';
  key: string;
  origin: 'client' | 'agent';
  entries: Signal<TurnEntry[]>;
  status: Signal<TurnStatus | null>;
  error: Signal<string | null>;
  refused: Signal<RefusedPrompt | null>;
}

export type TranscriptEntry = TurnModel | Exclude<TurnEntry, ItemModel>;

export interface ContextWindowUsage {
  usedTokens: number;
  modelContextWindow: number;
  estimated: boolean;
}
