import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * codex-acp (2.6) answers `session/delete` from a client without JetBrains AIR's session index by archiving: the
 * session's rollout moves to CODEX_HOME/archived_sessions, out of Codex's list but still on disk. A deleted
 * thread's conversation should not stay behind, so this removes the archived rollouts that name the session.
 * The real-agent delete test (test/providers/acp/realAgentsDelete.test.ts) fails if codex-acp moves them.
 */
export async function removeCodexArchivedRollouts(sessionId: string, env: NodeJS.ProcessEnv): Promise<void> {
  const codexHome = env['CODEX_HOME'] ?? path.join(env['HOME'] ?? os.homedir(), '.codex');
  const archive = path.join(codexHome, 'archived_sessions');
  const names = await readdir(archive).catch(() => [] as string[]);
  const rollouts = names.filter((name) => name.startsWith('rollout-') && name.endsWith(`-${sessionId}.jsonl`));
  await Promise.all(rollouts.map((name) => rm(path.join(archive, name), { force: true })));
}
