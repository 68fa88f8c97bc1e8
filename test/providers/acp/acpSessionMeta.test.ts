import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import { BUILT_IN_ACP_AGENTS, createAcpProvider } from '../../../src/daemon/providers/acp';
import type { PermissionMode } from '../../../src/protocol/approvals';
import { suiteTempDirs } from '../../helpers/temp/suiteDirs';

const FAULTY_AGENT = path.join(__dirname, '..', '..', 'helpers', 'fakes', 'faultyAcpAgent.mjs');

/**
 * A Claude thread that is not `full-access` tells claude-agent-acp not to allow bypass (issue 37): in a root container
 * whose IS_SANDBOX the adapter and Claude Code read differently, every session failed when the adapter allowed it.
 * The agent here is a hand-written one that records the `_meta` its session was opened with, under Claude's spec.
 */
describe("ACP session _meta: Claude's bypass opt-out by the thread's mode", function () {
  this.timeout(30_000);
  const tempDir = suiteTempDirs();

  async function metaOpenedWith(mode: PermissionMode): Promise<unknown> {
    const folder = await tempDir('ats-acp-meta-');
    const file = path.join(folder, 'meta.jsonl');
    const provider = createAcpProvider({
      name: 'claude',
      spec: {
        ...BUILT_IN_ACP_AGENTS.claude,
        command: process.execPath,
        args: [FAULTY_AGENT, 'none'],
        env: { FAULTY_AGENT_SESSION_META: file },
      },
      log: () => undefined,
    });
    const thread = await provider.openThread({
      threadId: 'thr_meta',
      cwd: folder,
      model: 'claude/default',
      permissionMode: mode,
      dataDir: folder,
      emit: () => undefined,
    });
    await thread.dispose();
    return JSON.parse((await readFile(file, 'utf8')).trim());
  }

  for (const mode of ['ask', 'accept-edits'] as const) {
    it(`a ${mode} thread opens its session with allowDangerouslySkipPermissions: false`, async () => {
      expect(await metaOpenedWith(mode)).to.deep.equal({ claudeCode: { options: { allowDangerouslySkipPermissions: false } } });
    });
  }

  it('a full-access thread sends no _meta: the adapter decides as before', async () => {
    expect(await metaOpenedWith('full-access')).to.equal(null);
  });
});
