import { expect } from 'chai';
import fc from 'fast-check';
import { rowTextOf, toDocument, toRow } from '../../src/store/eventDocument';
import type { StoredThreadEvent } from '../../src/store/eventStore';

/**
 * An events page goes out as the documents' own row texts spliced together (issue 16: a first read costs no
 * parse and no second serialisation). Whatever a row holds, its text must be exactly the JSON that
 * `JSON.stringify` makes of the row the document gives back, so a client cannot tell the two apart.
 */
const oddText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }), // lone surrogates, escaped by JSON.stringify
  fc.constantFrom('"', '\\', '\\"', ',"data":', ',"scope":{', '}', '{"kind":"turn"}', '\u2028', '\u0000'),
);
const oddKey = fc.oneof(fc.string(), fc.constantFrom('__proto__', '$schema', 'a.b', 'data', 'scope', 'createdAt'));
const data = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(oddKey, fc.oneof(fc.jsonValue(), oddText)),
  fc.constant(undefined), // a row without data: the key is absent in both texts
);

const rowArb: fc.Arbitrary<StoredThreadEvent> = fc
  .record({
    id: oddText,
    threadId: oddText,
    seq: fc.nat(),
    type: oddText,
    turnId: fc.option(oddText, { nil: null }),
    scopeKind: fc.constantFrom('implied', 'thread', 'otherTurn', 'extraKey', 'odd'),
    otherTurn: oddText,
    odd: fc.dictionary(oddKey, fc.jsonValue()),
    data,
    createdAt: fc.oneof(
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
      oddText,
    ),
  })
  .map(({ scopeKind, otherTurn, odd, turnId, ...row }) => {
    const implied = turnId === null ? { kind: 'thread' } : { kind: 'turn', turnId };
    const scope = {
      implied,
      thread: { kind: 'thread' },
      otherTurn: { kind: 'turn', turnId: otherTurn },
      extraKey: { ...implied, note: otherTurn },
      odd,
    }[scopeKind];
    return { ...row, turnId, scope } as unknown as StoredThreadEvent;
  });

describe('rowTextOf: a stored document as the JSON text of its row (events page)', () => {
  it('is exactly JSON.stringify of the row the document gives, for any row', () => {
    fc.assert(
      fc.property(rowArb, (row) => {
        const document = toDocument(row);
        expect(rowTextOf(document)).to.equal(JSON.stringify(toRow(document)));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same text for a document of the earlier shape (data and scope as texts)', () => {
    const earlier = {
      _id: '["thr_a",3]',
      id: 'evt-1',
      threadId: 'thr_a',
      seq: 3,
      type: 'item/agentMessage/delta',
      turnId: 'turn-1',
      scope: JSON.stringify({ kind: 'turn', turnId: 'turn-1' }),
      data: JSON.stringify({ delta: 'hi "there"' }),
      createdAt: '2026-11-25T06:00:00.000Z',
    };
    expect(rowTextOf(earlier)).to.equal(JSON.stringify(toRow(earlier)));
    expect(JSON.parse(rowTextOf(earlier))).to.deep.include({ seq: 3, data: { delta: 'hi "there"' } });
  });
});
