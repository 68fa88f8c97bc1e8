import { expect } from 'chai';
import { storedRows } from './storedRows';
import { Transcript } from '../../src/web/state/transcript';
import { type ItemModel, type TurnModel } from '../../src/web/state/transcriptModel';

const built = storedRows('t1');
const row = built.row;

/** The page's fold of a thread's rows into turns and items (src/web/state/transcript.ts). */
describe('the page folds thread rows into turns', () => {
  beforeEach(() => built.reset());

  it('a turn with the user message, a streamed answer, a command with output, usage, and its final status', () => {
    const rows = [
      row('turn/started', { origin: 'client' }),
      row('item/started', { item: { type: 'userMessage', id: 'u1', content: [{ type: 'text', text: 'Hi' }] } }),
      row('item/started', { item: { type: 'agentMessage', id: 'm1', text: '' } }),
      row('item/agentMessage/delta', { itemId: 'm1', delta: 'Hel' }),
      row('item/agentMessage/delta', { itemId: 'm1', delta: 'lo' }),
      row('item/started', { item: { type: 'commandExecution', id: 'c1', command: 'ls', status: 'inProgress', aggregatedOutput: '' } }),
      row('item/commandExecution/outputDelta', { itemId: 'c1', delta: 'a\n' }),
      row('thread/tokenUsage/updated', { tokenUsage: { total: { totalTokens: 3 }, last: { totalTokens: 3 } } }),
      row('turn/completed', { status: 'failed', error: { message: 'boom' } }),
    ];
    const transcript = new Transcript();
    transcript.apply(rows);
    const [turn] = transcript.entries.value as TurnModel[];
    expect(turn!.status.value).to.equal('failed');
    expect(turn!.error.value).to.equal('boom');
    const items = turn!.entries.value as ItemModel[];
    expect(items.map((item) => item.key)).to.deep.equal(['u1', 'm1', 'c1']);
    expect(items[1]!.text.value).to.equal('Hello');
    expect(items[2]!.output.value).to.equal('a\n');
    expect(transcript.tokenUsage.value!.total.totalTokens).to.equal(3);
  });

  it('rows already applied are skipped, so a resumed stream never shows a text twice', () => {
    const rows = [
      row('turn/started', { origin: 'agent' }),
      row('item/started', { item: { type: 'agentMessage', id: 'm1', text: '' } }),
      row('item/agentMessage/delta', { itemId: 'm1', delta: 'once' }),
    ];
    const transcript = new Transcript();
    transcript.apply(rows.slice(0, 3));
    expect(transcript.apply(rows)).to.equal(0);
    const [turn] = transcript.entries.value as TurnModel[];
    expect(turn!.origin).to.equal('agent');
    expect((turn!.entries.value[0] as ItemModel).text.value).to.equal('once');
  });

  it('a delta changes only its own message signal: other items and the turn list keep their values', () => {
    const transcript = new Transcript();
    transcript.apply([
      row('turn/started', { origin: 'client' }),
      row('item/started', { item: { type: 'agentMessage', id: 'm1', text: '' } }),
      row('item/completed', { item: { type: 'agentMessage', id: 'm1', text: 'done' } }),
      row('item/started', { item: { type: 'agentMessage', id: 'm2', text: '' } }),
    ]);
    const entries = transcript.entries.value;
    const [turn] = entries as TurnModel[];
    const turnEntries = turn!.entries.value;
    const first = turnEntries[0] as ItemModel;
    const firstText = first.text.value;
    transcript.apply([row('item/agentMessage/delta', { itemId: 'm2', delta: 'streaming' })]);
    expect(transcript.entries.value).to.equal(entries);
    expect(turn!.entries.value).to.equal(turnEntries);
    expect(first.text.value).to.equal(firstText);
    expect((turnEntries[1] as ItemModel).text.value).to.equal('streaming');
  });

  it('errors and extension messages are shown; thread-scoped ones between turns', () => {
    const custom = {
      params: { message: { type: 'message_end', message: { role: 'custom', customType: 'reminder', content: 'Check it', display: true } } },
    };
    const transcript = new Transcript();
    transcript.apply([
      row('provider/error', { providerId: 'pi', message: 'no key', willRetry: false }, null),
      row('turn/started', { origin: 'agent' }),
      row('provider/unhandled', { providerId: 'pi', rawType: 'sdk/message_end', rawEvent: custom }),
    ]);
    const [note, turn] = transcript.entries.value;
    expect(note).to.deep.include({ kind: 'error', text: 'no key' });
    expect((turn as TurnModel).entries.value[0]).to.deep.include({
      kind: 'custom',
      title: 'Extension message (reminder)',
      text: 'Check it',
    });
  });
});
