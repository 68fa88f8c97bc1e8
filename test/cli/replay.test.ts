import { expect } from 'chai';
import { agentStartedTurnTypes } from '../helpers/specEventOrder';
import { execFile } from 'node:child_process';
import path from 'node:path';
import type { StoredThreadEvent } from '../../src/store/eventStore';
import { makeTempDir } from '../helpers/pipelineTempDir';

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

const parseRows = (stdout: string) => stdout.trim().split('\n').map((line) => JSON.parse(line) as StoredThreadEvent);

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
    expect(stderr).to.match(/line 4: Parse error.*-32700/).and.match(/line 5: Invalid params.*-32602/);
    expect(code).to.equal(2);
    const rows = parseRows(stdout);
    expect(rows.filter((row) => row.type === 'turn/completed')).to.have.lengthOf(1);
    expect(rows.find((row) => row.type === 'item/completed')!.data['item']).to.deep.include({ text: 'Hello there!' });
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

  it('explains a missing file and exits non-zero', async () => {
    const { code, stderr } = await replay(fixture('does-not-exist.jsonl'));
    expect(code).to.equal(1);
    expect(stderr).to.contain('cannot read');
  });
});
