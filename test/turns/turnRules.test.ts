import { expect } from 'chai';
import { reduceTurn } from '../../src/turns/turnRules';
import { INITIAL_TURN_STATE, type ThreadTurnState, type TurnFact } from '../../src/turns/turnState';
import { parseFrame } from '../../src/protocol/parseFrame';
import { sequentialIds } from '../helpers/pipeline/marbles';
import * as b from '../helpers/pipeline/sdk';
import { RULE_CASES, textOfUserItem } from '../helpers/pipeline/ruleCases';

const T = 'thr_1';

/** Folds frames through the pure reducer; facts are summarised as `kind[:detail]` for readable tables. */
function run(frames: unknown[], initial: ThreadTurnState = INITIAL_TURN_STATE) {
  const newId = sequentialIds('t');
  let state = initial;
  const facts: TurnFact[] = [];
  for (const frame of frames) {
    const parsed = parseFrame(frame);
    if (!('input' in parsed)) throw new Error(`fixture frame rejected: ${JSON.stringify(parsed.error)}`);
    const step = reduceTurn(state, parsed.input, newId);
    state = step.state;
    facts.push(...step.facts);
  }
  return { state, facts, summary: facts.map(summarise) };
}

function summarise(fact: TurnFact): string {
  switch (fact.kind) {
    case 'turnCompleted':
      return `turnCompleted:${fact.status}${fact.error ? `(${fact.error.message})` : ''}`;
    case 'unhandled':
      return `unhandled:${fact.rawType}`;
    case 'itemCompleted':
      return `itemCompleted:${fact.text}`;
    case 'itemDelta':
      return `delta:${fact.delta}`;
    case 'providerError':
      return `providerError:${fact.willRetry ? 'willRetry' : 'final'}`;
    case 'turnStarted':
      return `turnStarted:${fact.origin}`;
    case 'userMessageStarted':
    case 'userMessageCompleted':
      return `${fact.kind}:${textOfUserItem(fact.item)}`;
    case 'toolStarted':
      return `toolStarted:${fact.tool.kind}:${fact.tool.id}`;
    case 'toolOutputDelta':
      return `output:${fact.delta}`;
    case 'toolCompleted':
      return `toolCompleted:${fact.tool.kind}:${fact.outcome.status}${fact.outcome.exitCode === undefined ? '' : `(${fact.outcome.exitCode})`}`;
    default:
      return fact.kind;
  }
}

const cases = RULE_CASES;
const reply = (text: string) => b.streamedReply(T, [text]);

describe('turn rules (reduceTurn)', () => {
  for (const { name, frames, expected, turnOpenAfter } of cases) {
    it(name, () => {
      const { summary, state } = run(frames);
      expect(summary).to.deep.equal(expected);
      if (turnOpenAfter !== undefined) expect(state.turn !== null).to.equal(turnOpenAfter);
    });
  }

  it('E7 stamps every fact with the open turn and uses a new id per turn', () => {
    const { facts } = run([
      b.sdk(T, b.agentStart()),
      ...reply('Hi').frames,
      b.sdk(T, b.agentEnd([reply('Hi').final])),
      b.sdk(T, b.agentStart()),
      b.sdk(T, b.agentEnd([b.assistantMessage('Hi')])),
    ]);
    const firstTurn = facts.slice(0, 7).map((fact) => fact.turnId);
    const secondTurn = facts.slice(7).map((fact) => fact.turnId);
    expect(new Set(firstTurn)).to.have.lengthOf(1);
    expect(new Set(secondTurn)).to.have.lengthOf(1);
    expect(firstTurn[0]).to.not.equal(secondTurn[0]);
  });

  it('sums usage of every assistant message of a run into the running per-thread total', () => {
    const run1 = [
      b.sdk(T, b.agentStart()),
      b.sdk(
        T,
        b.agentEnd([b.assistantMessage('a', { usage: b.usage(10, 5, 100) }), b.assistantMessage('b', { usage: b.usage(20, 7, 110) })]),
      ),
    ];
    const { facts } = run([...run1, ...run1]);
    const usages = facts.filter((fact) => fact.kind === 'tokenUsage');
    expect(usages.map((fact) => fact.kind === 'tokenUsage' && fact.last)).to.deep.equal([
      { totalTokens: 137, inputTokens: 130, cachedInputTokens: 110, outputTokens: 7 },
      { totalTokens: 137, inputTokens: 130, cachedInputTokens: 110, outputTokens: 7 },
    ]);
    expect(usages.map((fact) => fact.kind === 'tokenUsage' && fact.total.totalTokens)).to.deep.equal([252, 504]);
  });

  it('leaves the state it was given unchanged (pure), so threads cannot leak into each other', () => {
    const first = run([b.sdk(T, b.agentStart())]);
    const again = reduceTurn(first.state, parseFrameInput(b.sdk(T, b.agentEnd([]))), sequentialIds('x'));
    expect(first.state.turn).to.not.equal(null);
    expect(again.state.turn).to.equal(null);
  });
});

function parseFrameInput(frame: unknown) {
  const parsed = parseFrame(frame);
  if (!('input' in parsed)) throw new Error('rejected');
  return parsed.input;
}
