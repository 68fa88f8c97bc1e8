import type { StoredThreadEvent } from '../../../protocol/threadEvents';
import type { RepoLocks } from '../repoLocks';
import type { AgentRewind } from './agentRewind';

/** The thread's log as the rewind wing needs it: its rows, and the pipeline to write its own through. */
export interface ThreadLog {
  list(threadId: string, options?: { afterSeq?: number }): Promise<StoredThreadEvent[]>;
  lastSeq(threadId: string): Promise<number>;
  /** `thread.ingest`: the frame numbered by the pipeline like every row. */
  ingest(frame: unknown): Promise<unknown>;
}

export interface RewindDeps {
  dataDir: string;
  tempDir: string;
  locks: RepoLocks;
  log(message: string): void;
  threadLog: ThreadLog;
  /** Moves the agent's own conversation with a revert where its provider can (pi). */
  agent: AgentRewind;
  /** True while the thread has a turn open on this daemon: its files are the agent's then. */
  turnOpen(threadId: string): boolean;
  now?(): number;
}
