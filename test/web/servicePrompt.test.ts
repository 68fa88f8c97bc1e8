import { expect } from 'chai';
import { SERVICE_PROMPT_PREFIX as SERVER_PREFIX, servicePrompt, titleAndBody } from '../../src/server/ship/servicePrompts';
import { SERVICE_PROMPT_PREFIX, serviceQuestionOf } from '../../src/web/ship/servicePrompt';

/** Issue 39: the page tells the service's questions (generate) from the user's prompts by one shared prefix. */
describe('the service’s questions to a thread’s agent', () => {
  it('carry the prefix the page looks for, and the page shows them without it', () => {
    expect(SERVICE_PROMPT_PREFIX).to.equal(SERVER_PREFIX);
    for (const kind of ['commit', 'pull-request'] as const) {
      const asked = serviceQuestionOf(servicePrompt(kind, 'main'));
      expect(asked)
        .to.be.a('string')
        .and.not.match(/^\[agent-thread-service\]/);
    }
    expect(serviceQuestionOf('Fix the login page')).to.equal(null);
  });

  it('read a pull request answer as its first line the title, the rest the body', () => {
    expect(titleAndBody('# Title: Add x\n\nAdds **x**.\n')).to.deep.equal({ title: 'Add x', body: 'Adds **x**.' });
    expect(titleAndBody('Add x')).to.deep.equal({ title: 'Add x', body: '' });
  });
});
