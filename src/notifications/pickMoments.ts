import { defer, mergeMap, type OperatorFunction } from 'rxjs';
import type { StoredThreadEvent } from '../store/eventStore';
import type { Moment, NotableMoment } from './moment';

/** A summary is one line of at most this many characters (a phone shows about two lines). */
export const SUMMARY_MAX_CHARS = 200;
/**
 * Threads whose latest agent answer is remembered at once. An entry lives from the answer to its turn's end, so
 * only threads with a turn open count; past this many (turns left open by a crash) the oldest is forgotten.
 */
const MAX_OPEN_TURNS = 10_000;

/**
 * Stored rows → the moments worth a notification, in row order:
 *
 * ```
 * rows:     item/completed{agentMessage "done"} · approval/requested · approval/resolved · turn/completed{completed}
 * moments:                                        notable(asked)       answered            notable(turn.completed, "done")
 * ```
 *
 * `turn/completed` is `turn.completed` or `turn.failed` (`failed`, or `interrupted` with a reason: the run was
 * lost); an `interrupted` without a reason is a stop, which whoever stopped it knows of, and is not notified.
 * The summary of a turn is the agent's last answer in it (or the error).
 */
export function pickMoments(): OperatorFunction<StoredThreadEvent, Moment> {
  return (rows) =>
    defer(() => {
      const lastAnswer = new Map<string, string>();
      const remember = (threadId: string, text: string) => {
        lastAnswer.delete(threadId); // re-inserted last: the Map's order is then the age of each answer
        lastAnswer.set(threadId, text);
        if (lastAnswer.size > MAX_OPEN_TURNS) lastAnswer.delete(lastAnswer.keys().next().value!);
      };
      return rows.pipe(
        mergeMap((row): Moment[] => {
          switch (row.type) {
            case 'item/completed':
              if (row.data.item.type === 'agentMessage' && row.data.item.text.trim() !== '') remember(row.threadId, row.data.item.text);
              return [];
            case 'approval/requested': {
              const { subject, approvalId } = row.data;
              const summary = oneLine(subject.command ? `${subject.title}: ${subject.command}` : subject.title);
              return [{ kind: 'notable', event: 'approval.requested', row, summary, approvalId }];
            }
            case 'approval/resolved':
              return [{ kind: 'answered', threadId: row.threadId, approvalId: row.data.approvalId }];
            case 'turn/completed': {
              const answer = lastAnswer.get(row.threadId);
              lastAnswer.delete(row.threadId);
              const { status, error } = row.data;
              if (status === 'interrupted' && !error) return [];
              const moment: NotableMoment = {
                kind: 'notable',
                event: status === 'completed' ? 'turn.completed' : 'turn.failed',
                row,
                summary: oneLine(status === 'completed' ? (answer ?? 'Completed') : (error?.message ?? answer ?? 'Failed')),
              };
              return [moment];
            }
            default:
              return [];
          }
        }),
      );
    });
}

/** Whitespace folded to single spaces, cut at SUMMARY_MAX_CHARS with an ellipsis. */
export function oneLine(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  if (folded.length <= SUMMARY_MAX_CHARS) return folded;
  // By code point, so an emoji is never cut in half.
  return `${Array.from(folded)
    .slice(0, SUMMARY_MAX_CHARS - 1)
    .join('')}…`;
}
