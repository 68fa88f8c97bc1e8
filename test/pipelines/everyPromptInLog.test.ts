import { expect } from 'chai';
import { acpPromptStartedFrame } from '../../src/protocol/acpFrames';
import { summariseRow } from '../helpers/pipeline/ruleCases';
import { runPipeline } from '../helpers/pipeline/run';
import * as acp from '../helpers/pipeline/acp';
import * as b from '../helpers/pipeline/sdk';

const T = 'thr_1';

/** Issue 29, through the whole pipeline into a store: what the user sent is a row of the thread, whatever became of it. */
describe('every prompt is in the log (issue 29)', () => {
  it('E5 a prompt pi refused before any run is its own client turn: the prompt, then one failed turn/completed (E7: one turn id)', async () => {
    const { rows } = await runPipeline([
      b.promptStarted(T, 'pi', 'What does this repo do?'),
      b.promptSettled(T, { message: 'No API key' }),
    ]);
    expect(rows.map(summariseRow)).to.deep.equal([
      'turnStarted:client',
      'userMessageStarted:What does this repo do?',
      'userMessageCompleted:What does this repo do?',
      'turnCompleted:failed(No API key)',
    ]);
    expect(new Set(rows.map((row) => row.turnId)).size).to.equal(1);
    expect(rows.every((row) => row.scope.kind === 'turn')).to.equal(true);
  });

  it('an ACP agent does not echo the prompt: its turn shows it first, from acp/prompt/started', async () => {
    const { rows } = await runPipeline([acpPromptStartedFrame(T, 'Fix the build'), acp.chunk(T, 'Done.'), acp.ended(T)]);
    expect(rows.map(summariseRow).slice(0, 4)).to.deep.equal([
      'turnStarted:client',
      'userMessageStarted:Fix the build',
      'userMessageCompleted:Fix the build',
      'itemStarted',
    ]);
    expect(rows.at(-1)!.type).to.equal('turn/completed');
  });
});
