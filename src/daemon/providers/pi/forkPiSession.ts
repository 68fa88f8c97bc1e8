import { existsSync } from 'node:fs';
import type { ForkSessionRequest } from '../agentProvider';
import { loadPiSdk } from './loadPiSdk';
import { findSessionFile } from './sessionFiles';

/**
 * A fork of a pi session at one of its entries (a turn's `providerCheckpointId`, the leaf right after its run):
 * pi's own `createBranchedSession` writes a new session file, in the same folder, holding only the path from
 * the root to that entry, with a new session id and the source named as its parent. The source file is only
 * read. pi writes the file only when that path has an assistant message; without one there is nothing of the
 * agent's to continue, and the fork falls back to a fresh session (docs/fork.md).
 */
export async function forkPiSession(sessionId: string, leafId: string, sessionDir: string, cwd: string): Promise<string> {
  const source = findSessionFile(sessionDir, sessionId);
  if (!source) throw new Error(`pi has no session ${sessionId} in ${sessionDir}`);
  const sdk = await loadPiSdk();
  const manager = sdk.SessionManager.open(source, sessionDir, cwd);
  const forked = manager.createBranchedSession(leafId);
  if (!forked || !existsSync(forked)) throw new Error(`pi wrote no session for the fork of ${sessionId} at ${leafId}`);
  return manager.getSessionId();
}

/**
 * The provider's `forkSession`: pi forks at the turn's own checkpoint (the leaf after its run), never at the
 * session's end by itself; a turn with no checkpoint of pi's has nothing to fork at (null: the fallback).
 */
export async function forkPiSessionAt(request: ForkSessionRequest): Promise<string | null> {
  if (request.checkpointId === null) return null;
  return forkPiSession(request.providerThreadId, request.checkpointId, request.dataDir, request.cwd);
}
