import { expect } from 'chai';
import { agentStartedTurnTypes } from '../helpers/pipeline/specEventOrder';
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { writeFile } from 'node:fs/promises';
import { makeTempDir } from '../helpers/temp/dir';
import * as b from '../helpers/pipeline/sdk';
import { RUN_LOST_MESSAGE } from '../../src/turns/ruleInput';

const ROOT = path.join(__dirname, '..', '..');
const fixture = (name: string) => path.join(ROOT, 'test', 'fixtures', name);

/** Runs the command exactly as a user types it: `npm run -s replay -- …`. */
function replay(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '-s', 'replay', '--', ...args], { cwd: ROOT }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const parseRows = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as StoredThreadEvent);

describe('npm run replay', function () {
  this.timeout(60_000);

  it('prints every stored row as one JSON object per line, in seq order', async () => {
    const { code, stdout } = await replay(fixture('agent-started-turn.jsonl'));
    expect(code).to.equal(0);
    const rows = parseRows(stdout);
    expect(rows.map((row) => row.seq)).to.deep.equal(rows.map((_, i) => i + 1));
    expect(rows.map((row) => row.type)).to.deep.equal(agentStartedTurnTypes(3));
  });

  it('reports bad lines on stderr with their line numbers, skips them, and processes the rest', async () => {
    const { code, stdout, stderr } = await replay(fixture('with-bad-lines.jsonl'));
    expect(stderr)
      .to.match(/line 4: Parse error.*-32700/)
      .and.match(/line 5: Invalid params.*-32602/);
    expect(code).to.equal(2);
    const rows = parseRows(stdout);
    expect(rows.filter((row) => row.type === 'turn/completed')).to.have.lengthOf(1);
    expect(
      rows.find((row) => row.type === 'item/completed' && (row.data['item'] as { type: string }).type === 'agentMessage')!.data['item'],
    ).to.deep.include({ text: 'Hello there!' });
  });

  it('writes into --data-dir, so a second replay continues the thread', async () => {
    const temp = await makeTempDir();
    try {
      await replay(fixture('client-turn.jsonl'), '--data-dir', temp.dir);
      const { code, stdout } = await replay(fixture('client-turn.jsonl'), '--data-dir', temp.dir);
      expect(code).to.equal(0);
      const rows = parseRows(stdout);
      expect(rows.map((row) => row.seq)).to.deep.equal(rows.map((_, i) => i + 1));
      expect(rows.filter((row) => row.type === 'turn/completed')).to.have.lengthOf(2);
    } finally {
      await temp.remove();
    }
  });

  describe('turn lifecycle (issue 12)', () => {
    let temp: Awaited<ReturnType<typeof makeTempDir>>;
    beforeEach(async () => (temp = await makeTempDir()));
    afterEach(() => temp.remove());

    const recording = async (name: string, frames: unknown[]) => {
      const file = path.join(temp.dir, name);
      await writeFile(file, frames.map((frame) => JSON.stringify(frame)).join('\n') + '\n');
      return file;
    };
    const T = 'thr_replay';
    const halfTurn = [b.promptStarted(T), b.sdk(T, b.agentStart()), ...b.streamedReply(T, ['Half an ans']).frames.slice(0, -1)];

    it('shows the final state: a stop whose run never ended closes the turn as interrupted at the end of the input', async () => {
      const { code, stdout } = await replay(await recording('stopped.jsonl', [...halfTurn, b.stop(T)]));
      expect(code).to.equal(0);
      const rows = parseRows(stdout);
      expect(rows.map((row) => row.seq)).to.deep.equal(rows.map((_, i) => i + 1));
      expect(rows.filter((row) => row.type === 'turn/completed').map((row) => row.data['status'])).to.deep.equal(['interrupted']);
    });

    it('a second replay on the same --data-dir is a later process: the turn the first left open closes first, the new turn is its own', async () => {
      const data = path.join(temp.dir, 'data');
      const first = parseRows((await replay(await recording('half.jsonl', halfTurn), '--data-dir', data)).stdout);
      expect(first.filter((row) => row.type === 'turn/completed')).to.have.lengthOf(0); // nothing could end it yet
      const { code, stdout, stderr } = await replay(
        await recording('next.jsonl', b.clientTurn(T, 'again', ['new answer'])),
        '--data-dir',
        data,
      );
      expect(code, stderr).to.equal(0);
      const rows = parseRows(stdout);
      const closed = rows[first.length]!;
      expect(closed.type).to.equal('item/completed'); // the half-streamed message completes with its turn
      expect(rows[first.length + 1]!.data).to.deep.include({ status: 'interrupted', error: { message: RUN_LOST_MESSAGE } });
      expect(rows[first.length + 2]!.type).to.equal('turn/started');
      expect(rows[first.length + 2]!.turnId).to.not.equal(first[0]!.turnId);
      expect(rows.filter((row) => row.type === 'turn/completed').map((row) => row.data['status'])).to.deep.equal([
        'interrupted',
        'completed',
      ]);
    });
  });

  it('explains a missing file and exits non-zero', async () => {
    const { code, stderr } = await replay(fixture('does-not-exist.jsonl'));
    expect(code).to.equal(1);
    expect(stderr).to.contain('cannot read');
  });
});
