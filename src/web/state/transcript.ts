import { signal, type Signal } from '@preact/signals';
import type { ApprovalRequest, ApprovalResolution, PlanStep, StoredThreadEvent, ThreadUpdate, TokenCounts, TurnStatus } from '../api/types';
import { approvalModelOf, planModelOf, type ApprovalModel, type PlanModel } from './approvals';
import type { ContextWindowUsage, ItemModel, ItemShape, NoteModel, TranscriptEntry, TurnEntry, TurnModel } from './transcriptModel';
import { noteOf } from './rowNotes';
import { userTextOf } from './userText';
import { RewindLog } from '../rewind/rewindLog';

/**
 * A thread's log folded into turns and items, fed rows in seq order (backlog pages, then the SSE stream).
 * A batch of rows is applied with one write per touched signal: one render however many rows it holds.
 */
export class Transcript {
  readonly entries = signal<TranscriptEntry[]>([]);
  readonly tokenUsage = signal<{ total: TokenCounts; last: TokenCounts } | null>(null);
  readonly contextWindow = signal<ContextWindowUsage | null>(null);
  /** Questions no `approval/resolved` row has answered yet, oldest first: the thread waits for its user. */
  readonly pendingApprovalIds = signal<string[]>([]);
  /**
   * The thread's own fields as its `thread/updated` rows left them (each row carries only what changed):
   * a rename, archive or mode change made in another tab reaches this header with the row.
   */
  readonly threadUpdate = signal<ThreadUpdate>({});
  /** The reverts in force (issue 39): which turns the page shows dimmed. */
  readonly rewind = new RewindLog();
  /** How many turns the log holds (one per `turn/started`): what a delete would take away. */
  readonly turnCount = signal(0);
  /** The last seq applied: rows at or below it are already shown (a resumed stream may repeat some). */
  lastSeq = 0;

  private readonly entryList: TranscriptEntry[] = [];
  private readonly turns = new Map<string, { model: TurnModel; list: TurnEntry[] }>();
  private readonly items = new Map<string, { model: ItemModel; text: string; output: string; item: ItemShape }>();
  private readonly dirtyTurns = new Set<string>();
  private readonly dirtyItems = new Set<string>();
  private readonly approvals = new Map<string, ApprovalModel>();
  private readonly plans = new Map<string, PlanModel>();
  private approvalsDirty = false;
  private entriesDirty = false;
  private update: ThreadUpdate = {};

  /** Applies rows in seq order; returns how many were new. */
  apply(rows: StoredThreadEvent[]): number {
    let applied = 0;
    for (const row of rows) {
      if (row.seq <= this.lastSeq) continue;
      this.lastSeq = row.seq;
      this.applyOne(row);
      applied += 1;
    }
    this.flush();
    return applied;
  }

  /**
   * Earlier rows, read backwards (issue 31): whole turns from just before the first row this log holds. They
   * are folded on their own and put in front; what the later rows already said (usage, context, the thread's
   * fields) stays, the earlier rows only fill what is still unknown.
   */
  prepend(rows: StoredThreadEvent[]): void {
    if (rows.length === 0) return;
    const earlier = new Transcript();
    earlier.apply(rows);
    this.entryList.unshift(...earlier.entryList);
    this.rewind.prepend(earlier.rewind);
    for (const [key, value] of earlier.turns) if (!this.turns.has(key)) this.turns.set(key, value);
    for (const [key, value] of earlier.items) if (!this.items.has(key)) this.items.set(key, value);
    for (const [key, value] of earlier.approvals) if (!this.approvals.has(key)) this.approvals.set(key, value);
    for (const [key, value] of earlier.plans) if (!this.plans.has(key)) this.plans.set(key, value);
    this.update = { ...earlier.update, ...this.update };
    if (!this.tokenUsage.value) this.tokenUsage.value = earlier.tokenUsage.value;
    if (!this.contextWindow.value) this.contextWindow.value = earlier.contextWindow.value;
    if (this.lastSeq === 0) this.lastSeq = earlier.lastSeq;
    this.entriesDirty = true;
    this.approvalsDirty = true;
    this.flush();
  }

  /** The top-level entry that shows the row with this seq: its turn, or the entry nearest after it. */
  entryKeyOf(row: StoredThreadEvent): string | undefined {
    if (row.turnId && this.turns.has(row.turnId)) return row.turnId;
    const direct = this.entryList.find((entry) => entry.key === row.id);
    return direct?.key;
  }

  private applyOne(row: StoredThreadEvent): void {
    const data = row.data as Record<string, unknown>;
    switch (row.type) {
      case 'turn/started':
        this.turnOf(row.turnId ?? row.id, data.origin === 'agent' ? 'agent' : 'client');
        this.rewind.turnStarted();
        return;
      case 'turn/completed': {
        const turn = this.turnOf(row.turnId ?? row.id);
        turn.model.status.value = data.status as TurnStatus;
        const error = data.error as { message?: string } | undefined;
        turn.model.error.value = error?.message ?? null;
        if (data.status === 'failed') this.foldRefusedPrompt(turn);
        return;
      }
      case 'item/started':
      case 'item/completed':
        this.itemFrom(row, data.item as ItemShape, row.type === 'item/completed');
        return;
      case 'item/agentMessage/delta':
      case 'item/reasoning/delta':
        this.appendTo(String(data.itemId), 'text', String(data.delta ?? ''));
        return;
      case 'item/commandExecution/outputDelta':
        this.appendTo(String(data.itemId), 'output', String(data.delta ?? ''));
        return;
      case 'thread/tokenUsage/updated':
        this.tokenUsage.value = data.tokenUsage as { total: TokenCounts; last: TokenCounts };
        return;
      case 'thread/contextWindowUsage/updated':
        this.contextWindow.value = data.contextWindowUsage as ContextWindowUsage;
        return;
      case 'approval/requested':
        this.approvalAsked(row, data as ApprovalRequest);
        return;
      case 'approval/resolved':
        this.approvalAnswered(data as ApprovalResolution);
        return;
      case 'turn/plan/updated':
        this.planOf(row, data.plan as PlanStep[]);
        return;
      case 'thread/reverted':
      case 'thread/unreverted':
        this.rewind.apply(row);
        return;
      case 'thread/updated': {
        const { title, archived, keepAgentRunning, permissionMode } = row.data;
        const changed = { title, archived, keepAgentRunning, permissionMode };
        for (const [field, value] of Object.entries(changed)) if (value !== undefined) this.update = { ...this.update, [field]: value };
        return;
      }
      default: {
        const note = noteOf(row);
        if (note) this.note(row, note);
        return;
      }
    }
  }

  private turnOf(turnId: string, origin: 'client' | 'agent' = 'client'): { model: TurnModel; list: TurnEntry[] } {
    let turn = this.turns.get(turnId);
    if (!turn) {
      const model: TurnModel = {
        kind: 'turn',
        key: turnId,
        origin,
        entries: signal([]),
        status: signal(null),
        error: signal(null),
        refused: signal(null),
      };
      turn = { model, list: [] };
      this.turns.set(turnId, turn);
      this.entryList.push(model);
      this.entriesDirty = true;
    }
    return turn;
  }

  /**
   * A failed turn that holds nothing but what the user sent is a prompt the agent never took. When the entry
   * right before it is the same prompt refused before, that entry goes: one prompt, one error, updated.
   */
  private foldRefusedPrompt(turn: { model: TurnModel; list: TurnEntry[] }): void {
    const prompts = turn.list.filter((entry): entry is ItemModel => entry.kind === 'item' && entry.item.value.type === 'userMessage');
    if (prompts.length !== 1 || turn.list.length !== 1) return;
    const prompt = userTextOf(prompts[0]!.item.value);
    const at = this.entryList.indexOf(turn.model);
    const before = this.entryList[at - 1];
    const earlier = before?.kind === 'turn' ? before.refused.value : null;
    if (earlier?.prompt === prompt) {
      this.entryList.splice(at - 1, 1);
      this.entriesDirty = true;
    }
    turn.model.refused.value = { prompt, attempts: (earlier?.prompt === prompt ? earlier.attempts : 0) + 1 };
  }

  private itemFrom(row: StoredThreadEvent, item: ItemShape, final: boolean): void {
    let held = this.items.get(item.id);
    if (!held) {
      const model: ItemModel = { kind: 'item', key: item.id, item: signal(item), text: signal(''), output: signal('') };
      held = { model, text: '', output: '', item };
      this.items.set(item.id, held);
      this.add(row, model);
    }
    held.item = item;
    if ((item.type === 'agentMessage' || item.type === 'reasoning') && (final || held.text === '')) held.text = String(item.text ?? '');
    if (item.type === 'commandExecution' && final && typeof item.aggregatedOutput === 'string') held.output = item.aggregatedOutput;
    this.dirtyItems.add(item.id);
  }

  private appendTo(itemId: string, field: 'text' | 'output', delta: string): void {
    const held = this.items.get(itemId);
    if (!held) return;
    held[field] += delta;
    this.dirtyItems.add(itemId);
  }

  private approvalAsked(row: StoredThreadEvent, request: ApprovalRequest): void {
    if (this.approvals.has(request.approvalId)) return;
    const model = approvalModelOf(request);
    this.approvals.set(request.approvalId, model);
    this.add(row, model);
    this.approvalsDirty = true;
  }

  /** An answer to a question this log never showed (a row lost upstream) has nothing to settle. */
  private approvalAnswered(resolution: ApprovalResolution): void {
    const model = this.approvals.get(resolution.approvalId);
    if (!model) return;
    model.resolution.value = resolution;
    this.approvalsDirty = true;
  }

  /** A turn shows one plan, where its first version arrived; later versions replace its steps in place. */
  private planOf(row: StoredThreadEvent, steps: PlanStep[]): void {
    const turnId = row.turnId ?? '';
    const held = this.plans.get(turnId);
    if (held) {
      held.steps.value = steps;
      return;
    }
    const model = planModelOf(turnId, steps);
    this.plans.set(turnId, model);
    this.add(row, model);
  }

  /** A thread-scoped error repeating the one just shown (a start that keeps failing) counts up in place. */
  private note(row: StoredThreadEvent, note: NoteModel): void {
    const last = this.entryList.at(-1);
    if (!row.turnId && last && last.kind === note.kind && 'text' in last && last.title === note.title && last.text === note.text) {
      this.entryList[this.entryList.length - 1] = { ...last, repeats: (last.repeats ?? 1) + 1 };
      this.entriesDirty = true;
      return;
    }
    this.add(row, note);
  }

  /** Inside a turn: into that turn; outside (thread-scoped rows): between turns, in seq order. */
  private add(row: StoredThreadEvent, entry: TurnEntry): void {
    if (row.turnId) {
      const turn = this.turnOf(row.turnId);
      turn.list.push(entry);
      this.dirtyTurns.add(row.turnId);
    } else if (entry.kind !== 'item') {
      this.entryList.push(entry);
      this.entriesDirty = true;
    }
  }

  private flush(): void {
    for (const turnId of this.dirtyTurns) {
      const turn = this.turns.get(turnId)!;
      turn.model.entries.value = turn.list.slice();
    }
    for (const itemId of this.dirtyItems) {
      const held = this.items.get(itemId)!;
      held.model.item.value = held.item;
      held.model.text.value = held.text;
      held.model.output.value = held.output;
    }
    if (this.entriesDirty) this.entries.value = this.entryList.slice();
    if (this.turnCount.value !== this.turns.size) this.turnCount.value = this.turns.size;
    if (this.threadUpdate.value !== this.update) this.threadUpdate.value = this.update;
    if (this.approvalsDirty) {
      const pending = [...this.approvals.values()].filter((model) => !model.resolution.value).map((model) => model.request.approvalId);
      if (pending.join() !== this.pendingApprovalIds.value.join()) this.pendingApprovalIds.value = pending;
    }
    this.approvalsDirty = false;
    this.dirtyTurns.clear();
    this.dirtyItems.clear();
    this.entriesDirty = false;
  }
}
