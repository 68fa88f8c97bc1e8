import { expect } from 'chai';
import type { ReviewCommentRecord } from '../../src/registry/records';
import { promptWithReview } from '../../src/server/review/reviewBlock';
import { splitReview } from '../../src/web/changes/reviewBlock';

const record = (over: Partial<ReviewCommentRecord>): ReviewCommentRecord =>
  ({
    id: 'rc_1',
    threadId: 'thr_1',
    path: 'src/app.ts',
    line: 3,
    side: 'new',
    scope: 'uncommitted',
    text: 'Why?',
    snippet: 'export const answer = 42;',
    state: 'draft',
    createdAt: '2026-12-02T00:00:00.000Z',
    ...over,
  }) as ReviewCommentRecord;

/** Issue 38: the page reads back the review block the server adds after a prompt, to show it as a card. */
describe('the page splits a sent prompt from its review comments', () => {
  it('reads back every comment the server wrote: path, line, side, a multi-line snippet, a text with blank lines', () => {
    const comments = [
      record({}),
      record({ path: 'old.ts', line: 12, side: 'old', snippet: 'a\nb', text: 'First paragraph.\n\nSecond paragraph.\n2. not:1 a head' }),
      record({ path: 'notes.md', line: 1, snippet: '# Notes', text: 'Shorter.' }),
    ];
    const { prompt, comments: read } = splitReview(promptWithReview('Address the review\nplease', comments));
    expect(prompt).to.equal('Address the review\nplease');
    expect(read).to.deep.equal(comments.map(({ path, line, side, snippet, text }) => ({ path, line, side, snippet, text })));
  });

  it('a prompt without the block, or with text that only looks like one, is all prompt', () => {
    expect(splitReview('Just a prompt')).to.deep.equal({ prompt: 'Just a prompt', comments: [] });
    const lookalike = 'Notes\n\nReview comments (2):\n\nnothing here';
    expect(splitReview(lookalike)).to.deep.equal({ prompt: lookalike, comments: [] });
  });
});
