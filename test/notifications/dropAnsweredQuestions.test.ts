import { dropAnsweredQuestions } from '../../src/notifications/dropAnsweredQuestions';
import type { Moment, NotableMoment } from '../../src/notifications/moment';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { testScheduler } from '../helpers/pipeline/marbles';

const row = (seq: number) => ({ threadId: 'thr_1', seq }) as StoredThreadEvent;
const question = (approvalId: string, seq: number): NotableMoment => ({
  kind: 'notable',
  event: 'approval.requested',
  row: row(seq),
  summary: 'Run npm test',
  approvalId,
});
const turnEnd: NotableMoment = { kind: 'notable', event: 'turn.completed', row: row(9), summary: 'done' };
const answer = (approvalId: string, threadId = 'thr_1'): Moment => ({ kind: 'answered', threadId, approvalId });

describe('dropAnsweredQuestions() (issue 31: only questions that wait for the user are notified)', () => {
  it('lets a question through once it waited settleMs unanswered; turn ends pass at once', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const moments = cold<Moment>('-q-T-p-a----', { q: question('ap1', 1), T: turnEnd, p: question('ap2', 2), a: answer('ap2') });
      expectObservable(moments.pipe(dropAnsweredQuestions(3, scheduler))).toBe('---Tq-------', { T: turnEnd, q: question('ap1', 1) });
    });
  });

  it('an answer to another question, or to the same id in another thread, does not drop it', () => {
    const scheduler = testScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      const moments = cold<Moment>('-qab----', { q: question('ap1', 1), a: answer('ap9'), b: answer('ap1', 'thr_2') });
      expectObservable(moments.pipe(dropAnsweredQuestions(3, scheduler))).toBe('----q---', { q: question('ap1', 1) });
    });
  });
});
