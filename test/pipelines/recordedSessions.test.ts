import { expect } from 'chai';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { threadViolations } from '../helpers/pipelineInvariants';
import { rowsOfThread, runPipeline } from '../helpers/pipelineRun';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const RECORDED = path.join(FIXTURES, 'recorded');

function jsonlFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.jsonl')).map((name) => path.join(dir, name)) : [];
}

/** Recorded real pi sessions (test/fixtures/recorded) and hand-made ones shaped like pi 0.73 events. */
const sessions = [...jsonlFiles(RECORDED), ...jsonlFiles(FIXTURES).filter((file) => !file.endsWith('with-bad-lines.jsonl'))];

/** What the user sees for the recorded scenarios: per turn its origin, status and final assistant text. */
const EXPECTED_TURNS: Record<string, Array<{ origin: string; status: string; lastText?: string; error?: string }>> = {
  'client-text.jsonl': [{ origin: 'client', status: 'completed', lastText: 'Hello from pi!' }],
  'agent-started-by-extension.jsonl': [{ origin: 'agent', status: 'completed' }],
  'follow-up-while-running.jsonl': [{ origin: 'client', status: 'completed', lastText: 'Follow-up answered.' }],
  'slow-agent-end-handler.jsonl': [{ origin: 'client', status: 'completed', lastText: 'Answer before a slow agent_end handler.' }],
  'stop-mid-stream.jsonl': [{ origin: 'client', status: 'interrupted' }],
  'model-http-error.jsonl': [{ origin: 'client', status: 'failed', error: '400 The fake model refuses this request' }],
  'stream-cut-then-retry.jsonl': [{ origin: 'client', status: 'completed', lastText: 'Second try worked.' }],
};

function turnsOf(rows: StoredThreadEvent[]) {
  return rows
    .filter((row) => row.type === 'turn/completed')
    .map((completed) => {
      const own = rows.filter((row) => row.turnId === completed.turnId);
      const started = own.find((row) => row.type === 'turn/started')!;
      const lastItem = own.filter((row) => row.type === 'item/completed').at(-1);
      const error = completed.data['error'] as { message: string } | undefined;
      return {
        origin: String(started.data['origin']),
        status: String(completed.data['status']),
        ...(lastItem ? { lastText: (lastItem.data['item'] as { text: string }).text } : {}),
        ...(error ? { error: error.message } : {}),
      };
    });
}

describe('replaying sessions through the pipeline', () => {
  for (const [name, expected] of Object.entries(EXPECTED_TURNS)) {
    const file = path.join(RECORDED, name);
    (existsSync(file) ? it : it.skip)(`recorded/${name}: the user sees ${expected.map((turn) => `a ${turn.origin}-started turn ${turn.status}`).join(', ')}`, async () => {
      const frames = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
      const { rows } = await runPipeline(frames);
      const actual = turnsOf(rows);
      expect(actual.map(({ origin, status, error }) => ({ origin, status, ...(error ? { error } : {}) }))).to.deep.equal(
        expected.map(({ origin, status, error }) => ({ origin, status, ...(error ? { error } : {}) })),
      );
      expected.forEach((turn, i) => {
        if (turn.lastText !== undefined) expect(actual[i]!.lastText).to.equal(turn.lastText);
      });
    });
  }


  for (const file of sessions) {
    it(`${path.relative(FIXTURES, file)}: every frame is accepted, each turn completes once, seqs are gapless`, async () => {
      const frames = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '');
      const { steps, rows } = await runPipeline(frames);
      expect(steps.filter((step) => !step.ok)).to.deep.equal([]);
      expect(rows.length).to.be.greaterThan(0);
      for (const threadId of new Set(rows.map((row) => row.threadId))) {
        expect(threadViolations(rowsOfThread(rows, threadId)), threadId).to.deep.equal([]);
        expect(rowsOfThread(rows, threadId).filter((row) => row.type === 'turn/started').length, threadId).to.be.greaterThan(0);
      }
    });
  }
});
