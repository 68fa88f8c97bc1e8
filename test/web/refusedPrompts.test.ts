import { expect } from 'chai';
import { storedRows } from './storedRows';
import { Transcript } from '../../src/web/state/transcript';
import { type NoteModel, type TurnModel } from '../../src/web/state/transcriptModel';

const { row, reset } = storedRows(null);
const NO_KEY = 'No API key for the "anthropic" models on this host. Set ANTHROPIC_API_KEY …';

/** A prompt the agent never took, as the daemon stores it (issue 29): its turn, the prompt, one failed turn/completed. */
const refusedTurn = (turnId: string, prompt: string, reason = NO_KEY) => [
  row('turn/started', { origin: 'client' }, turnId),
  row('item/started', { item: { type: 'userMessage', id: `${turnId}-u`, content: [{ type: 'text', text: prompt }] } }, turnId),
  row('item/completed', { item: { type: 'userMessage', id: `${turnId}-u`, content: [{ type: 'text', text: prompt }] } }, turnId),
  row('turn/completed', { status: 'failed', error: { message: reason } }, turnId),
];

describe('the page shows a prompt the agent could not take once, with its one error (issue 29)', () => {
  beforeEach(() => reset());

  it('the prompt stays in its turn and the turn is marked refused, with the error once', () => {
    const transcript = new Transcript();
    transcript.apply(refusedTurn('t1', 'What does this repo do?'));
    const [turn] = transcript.entries.value as TurnModel[];
    expect(turn!.entries.value).to.have.length(1);
    expect(turn!.refused.value).to.deep.equal({ prompt: 'What does this repo do?', attempts: 1 });
    expect(turn!.error.value).to.equal(NO_KEY);
  });

  it('a Retry refused again updates the one entry (the latest error, the attempts) instead of adding another', () => {
    const transcript = new Transcript();
    transcript.apply(refusedTurn('t1', 'hello'));
    transcript.apply(refusedTurn('t2', 'hello', 'still no key'));
    const entries = transcript.entries.value as TurnModel[];
    expect(entries.map((entry) => entry.key)).to.deep.equal(['t2']);
    expect(entries[0]!.refused.value).to.deep.equal({ prompt: 'hello', attempts: 2 });
    expect(entries[0]!.error.value).to.equal('still no key');
  });

  it('another prompt refused, or a turn that ran and failed, stays an entry of its own', () => {
    const transcript = new Transcript();
    transcript.apply([
      ...refusedTurn('t1', 'hello'),
      ...refusedTurn('t2', 'something else'),
      row('turn/started', { origin: 'client' }, 't3'),
      row('item/completed', { item: { type: 'userMessage', id: 'u3', content: [{ type: 'text', text: 'something else' }] } }, 't3'),
      row('item/completed', { item: { type: 'agentMessage', id: 'm3', text: 'partial' } }, 't3'),
      row('turn/completed', { status: 'failed', error: { message: 'overloaded' } }, 't3'),
    ]);
    const entries = transcript.entries.value as TurnModel[];
    expect(entries.map((entry) => entry.key)).to.deep.equal(['t1', 't2', 't3']);
    expect(entries[2]!.refused.value).to.equal(null);
  });

  it('the same thread-scoped error said again in a row is one note with a count', () => {
    const transcript = new Transcript();
    const error = () => row('provider/error', { providerId: 'pi', message: 'unknown model', willRetry: false });
    transcript.apply([error(), error(), error()]);
    const notes = transcript.entries.value as NoteModel[];
    expect(notes).to.have.length(1);
    expect(notes[0]).to.deep.include({ text: 'unknown model', repeats: 3 });
  });
});
