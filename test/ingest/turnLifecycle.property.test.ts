import { expect } from 'chai';
import fc from 'fast-check';
import { VirtualTimeScheduler } from 'rxjs';
import { createThreadIngest, type ThreadIngest } from '../../src/ingest/threadIngest';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { createMemoryEventStore } from '../../src/store/memoryEventStore';
import { threadViolations } from '../helpers/pipeline/invariants';
import * as b from '../helpers/pipeline/sdk';
import { approvalRequestedFrame, approvalResolvedFrame } from '../../src/protocol/approvals';

const THREADS = ['A', 'B'];

/**
 * Tool call ids as a model gives them, unique per call: a start takes a new one, output and end name the
 * call started last (an end with none open names a call never seen). A model that reuses ids is another
 * matter (docs/events.md "Items"), not one of turn lifecycle.
 */
function toolIds() {
  let next = 0;
  const open = new Map<string, string>();
  return {
    start: (t: string) => {
      const id = `c${++next}`;
      open.set(t, id);
      return id;
    },
    current: (t: string) => open.get(t) ?? `c${++next}`,
    end: (t: string) => {
      const id = open.get(t) ?? `c${++next}`;
      open.delete(t);
      return id;
    },
  };
}
let ids = toolIds();

/** Question ids, unique per run: an answer names the question asked last on its thread (or one never asked). */
function approvalIds() {
  let next = 0;
  const last = new Map<string, string>();
  return {
    ask: (t: string) => {
      const id = `ap${++next}`;
      last.set(t, id);
      return id;
    },
    answer: (t: string) => last.get(t) ?? `ap${++next}`,
  };
}
let questions = approvalIds();
const subject = { kind: 'execute', title: 'ls', command: 'ls', paths: [] };

/** What can reach a thread, in any order: the run's envelopes (late ones included), the client's signals. */
const FRAMES: Record<string, (threadId: string) => unknown> = {
  promptStarted: (t) => b.promptStarted(t),
  agentStart: (t) => b.sdk(t, b.agentStart()),
  messageStart: (t) => b.sdk(t, b.messageStart(b.assistantMessage(''))),
  delta: (t) => b.sdk(t, b.textDelta('x')),
  messageEnd: (t) => b.sdk(t, b.messageEnd(b.assistantMessage('x'))),
  toolStart: (t) => b.sdk(t, b.toolStart(ids.start(t), 'bash', { command: 'ls' })),
  toolOutput: (t) => b.sdk(t, b.toolOutput(ids.current(t), 'out\n')),
  toolEnd: (t) => b.sdk(t, b.toolEnd(ids.end(t), 'bash', 'out\n')),
  customMessage: (t) => b.sdk(t, b.messageStart(b.customMessage('hi'))),
  agentEnd: (t) => b.sdk(t, b.agentEnd([b.assistantMessage('done')])),
  agentEndAborted: (t) => b.sdk(t, b.agentEnd([b.assistantMessage('', { stopReason: 'aborted' })])),
  agentEndError: (t) => b.sdk(t, b.agentEnd([b.assistantMessage('', { stopReason: 'error', errorMessage: 'boom' })])),
  agentEndRetry: (t) => b.sdk(t, b.agentEnd([b.assistantMessage('', { stopReason: 'error', errorMessage: 'busy' })], { willRetry: true })),
  agentEndBroken: (t) => b.sdk(t, { type: 'agent_end', messages: 'nope' }),
  agentSettled: (t) => b.sdk(t, { type: 'agent_settled', aborted: false }),
  settle: (t) => b.promptSettled(t),
  settleError: (t) => b.promptSettled(t, { message: 'rejected' }),
  stop: (t) => b.stop(t),
  ask: (t) => approvalRequestedFrame({ threadId: t, approvalId: questions.ask(t), subject, options: [], permissionMode: 'ask' }),
  answer: (t) => approvalResolvedFrame({ threadId: t, approvalId: questions.answer(t), decidedBy: 'user' }),
  cancel: (t) => approvalResolvedFrame({ threadId: t, approvalId: questions.answer(t), decidedBy: 'cancelled', reason: 'stop' }),
};

type Command = { kind: 'frame'; threadId: string; frame: string } | { kind: 'restart' } | { kind: 'graceTime' };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('frame' as const),
      threadId: fc.constantFrom(...THREADS),
      frame: fc.constantFrom(...Object.keys(FRAMES)),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'graceTime' as const }) },
);

/**
 * Questions answered more than once, answers to questions never asked, and questions of a turn still open
 * when it completed; returns the questions pending at the end as the rows tell it.
 */
function approvalsOf(rows: readonly StoredThreadEvent[]): { problems: string[]; pending: string[] } {
  const problems: string[] = [];
  const pending = new Map<string, string | null>(); // id → turn
  for (const row of rows) {
    const id = String(row.data['approvalId']);
    if (row.type === 'approval/requested') pending.set(id, row.turnId);
    if (row.type === 'approval/resolved' && !pending.delete(id)) problems.push(`seq ${row.seq}: ${id} answered but not pending`);
    if (row.type === 'turn/completed') {
      for (const [open, turnId] of pending) if (turnId === row.turnId) problems.push(`seq ${row.seq}: ${open} outlived its turn`);
    }
  }
  return { problems, pending: [...pending.keys()] };
}

/** Ends of the world after which nothing can end a turn any more: every thread stopped, or the process gone. */
const ending = fc.constantFrom('stopEverything', 'restart');

/** One process: an ingest on its own virtual clock (a restart is a new process on the same store). */
function process(store: ReturnType<typeof createMemoryEventStore>) {
  const clock = new VirtualTimeScheduler();
  const ingest: ThreadIngest = createThreadIngest({ store, scheduler: clock, turnGraceMs: 5_000 });
  return { clock, ingest };
}

/**
 * Rows that claim a turn after it completed (a late event reopening or extending it). The one row E2 puts
 * after `turn/completed`, the context window of that turn, is its own.
 */
function rowsAfterTheirTurn(rows: readonly StoredThreadEvent[]): string[] {
  const completedAt = new Map<string, number>();
  const problems: string[] = [];
  rows.forEach((row, i) => {
    if (row.turnId === null) return;
    const closed = completedAt.get(row.turnId);
    if (closed !== undefined && !(row.type === 'thread/contextWindowUsage/updated' && i === closed + 1)) {
      problems.push(`seq ${row.seq}: ${row.type} claims turn ${row.turnId}, completed at seq ${rows[closed]!.seq}`);
    }
    if (row.type === 'turn/completed') completedAt.set(row.turnId, i);
  });
  return problems;
}

describe('turn lifecycle, model-based (issue 12)', () => {
  it('property: after any interleaving of envelopes, settles, stops, questions and answers, restarts and late events, plus the grace, no turn is open and every thread reads correctly', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 40 }), ending, async (commands, end) => {
        const store = createMemoryEventStore();
        ids = toolIds();
        questions = approvalIds();
        let current = process(store);
        const rejected: string[] = [];
        for (const step of commands) {
          if (step.kind === 'restart') {
            await current.ingest.close();
            current = process(store);
          } else if (step.kind === 'graceTime') {
            current.clock.flush();
            await current.ingest.elapseGraces();
          } else {
            const outcome = await current.ingest.ingest(FRAMES[step.frame]!(step.threadId));
            if (!outcome.ok) rejected.push(`${step.frame}: ${outcome.error.message} ${JSON.stringify(outcome.error.data)}`);
          }
        }
        if (end === 'restart') {
          await current.ingest.close();
          current = process(store);
        } else {
          for (const threadId of THREADS) await current.ingest.ingest(b.stop(threadId));
        }
        current.clock.flush(); // the grace passes
        await current.ingest.elapseGraces();
        expect(rejected).to.deep.equal([]);
        for (const threadId of THREADS) {
          expect(await current.ingest.threadStatus(threadId), threadId).to.equal('idle');
          const rows = await store.list(threadId);
          expect(threadViolations(rows), threadId).to.deep.equal([]);
          expect(rowsAfterTheirTurn(rows), threadId).to.deep.equal([]);
          const { problems, pending } = approvalsOf(rows);
          expect(problems, threadId).to.deep.equal([]);
          expect(await current.ingest.pendingApprovalIds(threadId), threadId).to.deep.equal(pending);
        }
        await current.ingest.close();
      }),
      { numRuns: 300 },
    );
  });
});
