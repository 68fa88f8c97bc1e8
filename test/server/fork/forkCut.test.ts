import { expect } from 'chai';
import { cutAtTurn } from '../../../src/server/fork/forkCut';
import { forkRows } from '../../../src/server/fork/forkRows';
import { Problem } from '../../../src/server/http/problem';
import type { StoredThreadEvent } from '../../../src/store/eventStore';

/** A log from types: `turn/started:a` is a row of turn `a`; a type alone is thread-scoped. */
function log(...specs: string[]): StoredThreadEvent[] {
  return specs.map((spec, index) => {
    const [type, turnId = null] = spec.split(':');
    return {
      id: `r${index}`,
      threadId: 'thr_src',
      seq: index + 1,
      type,
      turnId,
      scope: turnId ? { kind: 'turn', turnId } : { kind: 'thread' },
      data: { providerThreadId: 'p' },
      createdAt: '2026-12-02T00:00:00.000Z',
    } as StoredThreadEvent;
  });
}

const TWO_TURNS_AND_ONE_RUNNING = log(
  'turn/started:a',
  'turn/completed:a',
  'thread/contextWindowUsage/updated:a',
  'thread/updated',
  'turn/started:b',
  'turn/completed:b',
  'thread/contextWindowUsage/updated',
  'turn/started:c',
);

describe('fork: where a fork cuts its source’s log (issue 39)', () => {
  type Expected = { sourceSeq: number; sourceTurnId: string | null; turnsAfter: boolean };
  const cases: Array<[string, StoredThreadEvent[], string | undefined, Expected]> = [
    [
      'a named turn: through its turn/completed and the usage row after it',
      TWO_TURNS_AND_ONE_RUNNING,
      'a',
      { sourceSeq: 3, sourceTurnId: 'a', turnsAfter: true },
    ],
    [
      'no turn: after the last completed one (a running turn is left out, but it went on after the cut)',
      TWO_TURNS_AND_ONE_RUNNING,
      undefined,
      { sourceSeq: 7, sourceTurnId: 'b', turnsAfter: true },
    ],
    [
      'the last turn of a thread at rest: nothing went on after the cut',
      TWO_TURNS_AND_ONE_RUNNING.slice(0, 7),
      'b',
      { sourceSeq: 7, sourceTurnId: 'b', turnsAfter: false },
    ],
  ];
  for (const [name, rows, turnId, expected] of cases) {
    it(name, () => {
      const cut = cutAtTurn(rows, turnId);
      expect({ sourceSeq: cut.sourceSeq, sourceTurnId: cut.sourceTurnId, turnsAfter: cut.turnsAfter }).to.deep.equal(expected);
      expect(cut.rows.map((row) => row.seq)).to.deep.equal(Array.from({ length: expected.sourceSeq }, (_, i) => i + 1));
    });
  }

  it('a running turn is 409 turn_not_completed, an unknown one 404 turn_not_found', () => {
    const codeOf = (turnId: string) => {
      try {
        cutAtTurn(TWO_TURNS_AND_ONE_RUNNING, turnId);
        return 'no error';
      } catch (error) {
        return error instanceof Problem ? `${error.status} ${error.code}` : String(error);
      }
    };
    expect(codeOf('c')).to.equal('409 turn_not_completed');
    expect(codeOf('zzz')).to.equal('404 turn_not_found');
  });

  it('a thread with no completed turn forks empty, and its fork’s log is the thread/forked row alone', () => {
    const cut = cutAtTurn(log('turn/started:a'));
    expect(cut).to.deep.equal({ rows: [], sourceSeq: 0, sourceTurnId: null, turnsAfter: true });
    expect(forkRows(cut, 'thr_src', 'thr_new')).to.deep.equal([
      {
        threadId: 'thr_new',
        type: 'thread/forked',
        turnId: null,
        scope: { kind: 'thread' },
        data: { providerThreadId: 'thr_new', sourceThreadId: 'thr_src', sourceSeq: 0, sourceTurnId: null },
      },
    ]);
  });
});
