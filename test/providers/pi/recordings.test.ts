import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { RECORDED_DIR, recordScenarios, SCENARIOS } from '../../fixtures/record';
import type { Frame } from './frameLog';

/**
 * What a recording promises its readers: which SDK events come in which order, with which message roles and
 * stream-event kinds, and how many prompt signals, ending with the settles. Ids, timestamps and the exact spot
 * of a mid-run `prompt/started` and its `queue_update` (a race with the model's stream) are not part of it.
 */
function shapeOf(frames: Frame[]) {
  const queueUpdates = frames.filter((frame) => frame.params.message?.type === 'queue_update').length;
  const sdk = frames
    .filter((frame) => frame.method === 'sdk/message' && frame.params.message!.type !== 'queue_update')
    .map(({ params: { message } }) =>
      [message!.type, message!.message?.role, message!.assistantMessageEvent?.type, message!.willRetry]
        .filter((part) => part !== undefined)
        .join(':'),
    );
  const signals = frames.filter((frame) => frame.method !== 'sdk/message').map((frame) => frame.method);
  const settledAtEnd = frames
    .slice(frames.length - signals.filter((method) => method.endsWith('/settled')).length)
    .every((frame) => frame.method.endsWith('/settled'));
  return { sdk, queueUpdates, signals: signals.sort(), settledAtEnd };
}

const readRecording = (name: string): Frame[] =>
  readFileSync(path.join(RECORDED_DIR, `${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Frame);

describe('recorded pi sessions (test/fixtures/recorded) still match what pi 0.73 does', () => {
  it('has one recording per scenario of test/fixtures/record.ts', () => {
    const files = readdirSync(RECORDED_DIR)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => name.replace(/\.jsonl$/, ''));
    expect(files.sort()).to.deep.equal(Object.keys(SCENARIOS).sort());
  });

  it('re-recording every scenario gives the same event kinds in the same order', async function () {
    this.timeout(60_000);
    const mismatches: string[] = [];
    await recordScenarios(
      Object.keys(SCENARIOS),
      (name, frames) => {
        const now = JSON.stringify(shapeOf(frames));
        if (now !== JSON.stringify(shapeOf(readRecording(name)))) mismatches.push(`${name}: now ${now}`);
      },
      () => undefined,
    );
    expect(mismatches).to.deep.equal([]);
  });
});
