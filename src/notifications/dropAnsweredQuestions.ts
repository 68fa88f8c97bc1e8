import { asyncScheduler, connect, filter, map, merge, mergeMap, takeUntil, timer, type OperatorFunction, type SchedulerLike } from 'rxjs';
import type { AnsweredMoment, Moment, NotableMoment } from './moment';

/**
 * Holds each question `settleMs` and lets it through only if no answer came meanwhile: the permission mode's
 * policy answers what it may at once (`accept-edits` allows an edit inside the folder), and such a question
 * never waited for anyone. Turn moments pass at once; answers themselves never pass.
 *
 * ```
 * settleMs = 3 frames
 * moments:  -q-T-p-a----   q, p: questions; a: p's answer; T: a turn's end
 * result:   ---Tq-------   q 3 frames after it came; p answered within 3, dropped
 * ```
 */
export function dropAnsweredQuestions(
  settleMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): OperatorFunction<Moment, NotableMoment> {
  return connect((moments) => {
    const answers = moments.pipe(filter((moment): moment is AnsweredMoment => moment.kind === 'answered'));
    const notable = moments.pipe(filter((moment): moment is NotableMoment => moment.kind === 'notable'));
    const answerTo = (question: NotableMoment) =>
      answers.pipe(filter((answer) => answer.threadId === question.row.threadId && answer.approvalId === question.approvalId));
    return merge(
      notable.pipe(filter((moment) => moment.event !== 'approval.requested')),
      notable.pipe(
        filter((moment) => moment.event === 'approval.requested'),
        mergeMap((question) =>
          timer(settleMs, scheduler).pipe(
            map(() => question),
            takeUntil(answerTo(question)),
          ),
        ),
      ),
    );
  });
}
