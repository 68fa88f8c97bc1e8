import { expect } from 'chai';
import { promptWithReview } from '../../src/protocol/reviewBlock';
import { withReviewComments } from '../../src/turns/userMessages';
import { sentReview } from '../../src/web/changes/sentReview';

const comments = [
  { path: 'src/app.ts', line: 3, side: 'new' as const, snippet: 'export const answer = 42;', text: 'Why?' },
  { path: 'old.ts', line: 12, side: 'old' as const, snippet: 'a', text: 'First paragraph.\n\nSecond paragraph.' },
];

/** Issue 38: the transcript shows a sent prompt alone, and the comments it carried as a card. */
describe('the page splits a sent prompt from its review comments', () => {
  it('shows the prompt without the block and the comments the turn rules read back', () => {
    const text = promptWithReview('Address the review\n\nplease', comments);
    const item = withReviewComments({ type: 'userMessage', id: 'u1', content: [{ type: 'text', text }] });
    expect(sentReview(item, text)).to.deep.equal({ prompt: 'Address the review\n\nplease', comments });
  });

  it('a message without comments is all prompt, even one that types the heading', () => {
    const text = 'Notes\n\nReview comments (1):\n\nnothing here';
    const item = withReviewComments({ type: 'userMessage', id: 'u2', content: [{ type: 'text', text }] });
    expect(sentReview(item, text)).to.deep.equal({ prompt: text, comments: [] });
  });
});
