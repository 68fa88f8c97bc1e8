import { expect } from 'chai';
import { promptWithReview, splitReviewBlock, type ReviewBlockComment } from '../../src/protocol/reviewBlock';
import { userMessageItemOf } from '../../src/turns/userMessages';

const comment = (fields: Partial<ReviewBlockComment> = {}): ReviewBlockComment => ({
  path: 'src/app.ts',
  line: 12,
  side: 'new',
  snippet: 'const total = items.length;',
  text: 'Use the filtered list.',
  ...fields,
});

describe('protocol: the review comments block of a prompt (issue 38)', () => {
  const cases: Array<[string, ReviewBlockComment[]]> = [
    ['one comment', [comment()]],
    ['an old-side line and a path with a colon', [comment(), comment({ path: 'docs/a:b.md', line: 3, side: 'old', snippet: '' })]],
    ['texts with blank lines and numbered lists', [comment({ text: 'First:\n\n2. not an entry\nsecond' }), comment({ text: 'ok' })]],
  ];
  for (const [name, comments] of cases) {
    it(`reads back what it wrote: ${name}`, () => {
      const text = promptWithReview('Please fix these.\n\nThanks', comments);
      expect(splitReviewBlock(text)).to.deep.equal({ prompt: 'Please fix these.\n\nThanks', comments });
    });
  }

  it('a prompt without comments is sent as it is, and a typed heading with no entries is no block', () => {
    expect(promptWithReview('Hi', [])).to.equal('Hi');
    expect(splitReviewBlock('Look:\n\nReview comments (2):\n\n1. a.ts:1\n> x\nonly one')).to.equal(undefined);
    expect(splitReviewBlock('plain text')).to.equal(undefined);
  });

  it('a user message item keeps the text as the agent received it and the comments beside it', () => {
    const text = promptWithReview('Go', [comment()]);
    const item = userMessageItemOf({ role: 'user', content: [{ type: 'text', text }] }, 'item-1');
    expect(item).to.deep.equal({ type: 'userMessage', id: 'item-1', content: [{ type: 'text', text }], reviewComments: [comment()] });
    expect(userMessageItemOf({ role: 'user', content: 'Go' }, 'item-2')).to.not.have.property('reviewComments');
  });
});
