import { expect } from 'chai';
import type { ModelChoice } from '../../src/web/api/types';
import { absoluteTime, newestFirst, relativeTime, shortFolder } from '../../src/web/render/listText';
import { defaultModel, matchingModels } from '../../src/web/state/modelChoices';

const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;

describe('the lists say how long ago a thread began and where a project lives (issue 29)', () => {
  const cases: Array<[string, string]> = [
    [ago(20_000), 'just now'],
    [ago(3 * MIN), '3 min ago'],
    [ago(59 * MIN), '59 min ago'],
    [ago(5 * 60 * MIN), '5 h ago'],
    [ago(30 * 60 * MIN), 'yesterday'],
    [ago(4 * 24 * 60 * MIN), '4 days ago'],
    [ago(-5 * MIN), 'just now'], // a clock a little ahead of ours
  ];
  for (const [iso, said] of cases) it(`${iso} reads "${said}"`, () => expect(relativeTime(iso, NOW)).to.equal(said));

  it('older than a week reads as a date, with the year only when it differs', () => {
    expect(relativeTime('2026-11-03T12:00:00.000Z', NOW)).to.match(/3/).and.not.match(/2026/);
    expect(relativeTime('2025-11-03T12:00:00.000Z', NOW)).to.match(/2025/);
  });

  it('the exact time (a tooltip) is the local date and time, to the minute', () => {
    const at = new Date(2026, 0, 5, 9, 7, 30);
    expect(absoluteTime(at.toISOString())).to.equal('2026-01-05 09:07');
    expect(absoluteTime('not a time')).to.equal('not a time');
  });

  it('threads and projects sort newest first by their creation time', () => {
    const made = (createdAt: string) => ({ createdAt });
    const sorted = [made('2026-11-03T12:00:00.000Z'), made('2026-11-27T09:00:00.000Z'), made('2025-12-31T23:59:59.999Z')].sort(newestFirst);
    expect(sorted.map((entry) => entry.createdAt)).to.deep.equal([
      '2026-11-27T09:00:00.000Z',
      '2026-11-03T12:00:00.000Z',
      '2025-12-31T23:59:59.999Z',
    ]);
  });

  it('a folder shows its last two segments; a short one shows whole', () => {
    expect(shortFolder('/home/me/work/demo')).to.equal('…/work/demo');
    expect(shortFolder('/home/me/work/demo/')).to.equal('…/work/demo');
    expect(shortFolder('/srv/demo')).to.equal('/srv/demo');
  });
});

describe('the model picker offers what the host can run (issue 29)', () => {
  const choice = (model: string, label: string, available: boolean): ModelChoice => ({
    value: `pi|${model}`,
    provider: 'pi',
    model,
    label,
    available,
  });
  const catalog = [
    choice('amazon-bedrock/claude', 'Claude (Bedrock) — amazon-bedrock/claude', false),
    choice('local/qwen2.5-coder', 'Qwen 2.5 Coder — local/qwen2.5-coder', true),
    choice('openai/gpt-4.1', 'GPT-4.1 — openai/gpt-4.1', true),
  ];

  it('lists only runnable models unless all are asked for', () => {
    expect(matchingModels(catalog, '', false).map((entry) => entry.model)).to.deep.equal(['local/qwen2.5-coder', 'openai/gpt-4.1']);
    expect(matchingModels(catalog, '', true)).to.have.length(3);
  });

  it('every word of the filter must match the name or the id, in any case', () => {
    expect(matchingModels(catalog, 'GPT 4.1', false).map((entry) => entry.model)).to.deep.equal(['openai/gpt-4.1']);
    expect(matchingModels(catalog, 'bedrock', false)).to.deep.equal([]);
    expect(matchingModels(catalog, 'bedrock', true).map((entry) => entry.model)).to.deep.equal(['amazon-bedrock/claude']);
  });

  it('defaults to the first runnable model, and to none when none can run', () => {
    expect(defaultModel(catalog)?.model).to.equal('local/qwen2.5-coder');
    expect(defaultModel(catalog.filter((entry) => !entry.available))).to.equal(undefined);
  });
});
