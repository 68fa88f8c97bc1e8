import type { RewindSessionOptions } from '../agentProvider';
import { loadPiSdk } from './loadPiSdk';
import { findSessionFile } from './sessionFiles';

/**
 * A closed pi session moved back to an earlier entry: pi keeps a session as a tree, so `branchWithSummary` starts
 * a branch at the checkpoint with the summary as its first entry (appended to the file, so the next open resumes
 * there); the undone entries stay in the file on the old branch. Answers the leaf it was at before.
 */
export async function rewindPiSession(options: RewindSessionOptions): Promise<string | null> {
  const file = findSessionFile(options.dataDir, options.providerThreadId);
  if (!file) throw new Error(`no pi session ${options.providerThreadId} in ${options.dataDir}`);
  const sdk = await loadPiSdk();
  const manager = sdk.SessionManager.open(file, options.dataDir, options.cwd);
  const before = manager.getLeafId();
  manager.branchWithSummary(options.checkpointId, options.summary);
  return before;
}
