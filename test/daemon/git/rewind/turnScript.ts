import { realpathSync } from 'node:fs';
import path from 'node:path';
import { recordEdge, turnRefBase } from '../../../../src/daemon/git/turns/turnRefs';
import { worktreeTree } from '../../../../src/daemon/git/tempIndex';
import { filesOf } from '../filesOf';

/**
 * A thread's turns played on a real work tree without an agent: each turn's edges are recorded exactly as the
 * daemon's turn recorder does (`worktreeTree`, then the turn's `start`/`end` ref), and the files at each turn's
 * start are kept to compare with after a revert.
 */
export interface ScriptedTurns {
  startFiles: Map<string, Record<string, string>>;
  turnIds: string[];
  play(turnId: string, change: () => void): Promise<void>;
}

export function scriptedTurns(workTree: string, threadId: string, tempDir: string): ScriptedTurns {
  const startFiles = new Map<string, Record<string, string>>();
  const turnIds: string[] = [];
  let clock = 1_700_000_000_000;
  const top = realpathSync(workTree);
  return {
    startFiles,
    turnIds,
    async play(turnId, change) {
      const base = turnRefBase(threadId, turnId, clock++);
      startFiles.set(turnId, filesOf(top));
      await recordEdge(top, base, 'start', await worktreeTree(top, tempDir));
      change();
      await recordEdge(top, base, 'end', await worktreeTree(top, tempDir));
      turnIds.push(turnId);
    },
  };
}

export const dataDirOf = (root: string) => path.join(root, 'data');
