import { expect } from 'chai';
import fc from 'fast-check';
import { pageTextOf, toDocument, toRow } from '../../src/store/nedb/eventDocument';
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
    seq: fc.oneof(fc.nat(), fc.double()), // NaN, -0, 1.5…: never written, but a page must not differ even then
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

describe('pageTextOf: stored documents as the JSON text of their rows (events page)', () => {
  it('is exactly JSON.stringify of the rows the documents give, for any row', () => {
    fc.assert(
      fc.property(rowArb, (row) => {
        const document = toDocument(row);
        expect(pageTextOf([document])).to.equal(JSON.stringify([toRow(document)]));
      }),
      { numRuns: 3000 },
    );
  });

  it('is exactly JSON.stringify of the rows for a page of rows of one thread or of several', () => {
    const page = fc
      .tuple(fc.array(rowArb, { maxLength: 12 }), fc.boolean())
      .map(([rows, oneThread]) => (oneThread ? rows.map((row) => ({ ...row, threadId: rows[0]!.threadId })) : rows));
    fc.assert(
      fc.property(page, (rows) => {
        const documents = rows.map(toDocument);
        expect(pageTextOf(documents)).to.equal(JSON.stringify(documents.map(toRow)));
      }),
      { numRuns: 500 },
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
    expect(pageTextOf([earlier])).to.equal(JSON.stringify([toRow(earlier)]));
    expect(JSON.parse(pageTextOf([earlier]))[0]).to.deep.include({ seq: 3, data: { delta: 'hi "there"' } });
  });
});
