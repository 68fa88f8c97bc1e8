import type { AgentThread, OpenThreadOptions } from '../agentProvider';
import { spawnAgentProcess, type AgentProcess } from './agentProcess';
import type { AgentFacts } from './agentProcessMessages';
import type { ProviderFactoryRef } from './providerFactoryRef';

export interface IsolatedThreadOptions {
  providerId: string;
  factory: ProviderFactoryRef;
  /** See `AgentProcessOptions.entry`. */
  entry?: string;
  disposeTimeoutMs: number;
  log(message: string): void;
}

/** One agent process and what it left open: prompts it started and has not settled. */
interface Incarnation {
  process: AgentProcess;
  unsettledPrompts: number;
  /** It ended because we asked it to (dispose) or because it could not open: nothing to report. */
  expectedEnd: boolean;
}

/**
 * A thread whose agent runs in a process of its own. When that process dies, the daemon's other threads
 * are untouched; this thread's open turn gets one `<id>/prompt/settled` with the exit reason per prompt the
 * agent left unsettled (at least one, so an agent-started turn hears it too; a settle for a closed turn is a
 * no-op, E5), and the next prompt starts a fresh agent on the same session (`resumeProviderThreadId`).
 */
export async function openIsolatedThread(options: IsolatedThreadOptions, thread: OpenThreadOptions): Promise<AgentThread> {
  const { threadId, providerId } = { threadId: thread.threadId, providerId: options.providerId };
  const { log } = options;
  let facts: AgentFacts = {};
  let current: Incarnation | undefined;
  let starting: Promise<Incarnation> | undefined;
  let disposed = false;
  // A fresh agent (after a crash) opens in the mode the thread has now, not the one it was opened with.
  let permissionMode = thread.permissionMode;

  const emit = (frame: unknown) => {
    try {
      thread.emit(frame);
    } catch (error) {
      log(`thread ${threadId}: emitting a frame failed: ${String(error)}`);
    }
  };

  const countPrompts = (incarnation: Incarnation, frame: unknown) => {
    const method = (frame as { method?: unknown } | null)?.method;
    if (method === `${providerId}/prompt/started`) incarnation.unsettledPrompts += 1;
    else if (method === `${providerId}/prompt/settled`) incarnation.unsettledPrompts = Math.max(0, incarnation.unsettledPrompts - 1);
  };

  const onEnded = (incarnation: Incarnation, reason: string) => {
    if (current === incarnation) current = undefined;
    if (incarnation.expectedEnd) return;
    log(`thread ${threadId}: ${reason}; its next prompt starts a fresh agent on the same session`);
    const settles = Math.max(1, incarnation.unsettledPrompts);
    incarnation.unsettledPrompts = 0;
    for (let i = 0; i < settles; i += 1) {
      emit({ jsonrpc: '2.0', method: `${providerId}/prompt/settled`, params: { threadId, error: { message: reason } } });
    }
  };

  const start = async (resumeProviderThreadId: string | undefined): Promise<Incarnation> => {
    const incarnation: Incarnation = {
      unsettledPrompts: 0,
      expectedEnd: false,
      process: spawnAgentProcess({
        factory: options.factory,
        ...(options.entry ? { entry: options.entry } : {}),
        threadId,
        log,
        ...(thread.askUser ? { askUser: thread.askUser } : {}),
        onFrame: (frame, frameFacts) => {
          facts = { ...facts, ...frameFacts };
          countPrompts(incarnation, frame);
          emit(frame);
        },
      }),
    };
    void incarnation.process.ended.then((reason) => onEnded(incarnation, reason));
    const { threadId: id, cwd, model, dataDir } = thread;
    try {
      facts = {
        ...facts,
        ...(await incarnation.process.request({
          type: 'open',
          options: { threadId: id, cwd, model, permissionMode, dataDir, resumeProviderThreadId, canAskUser: thread.askUser !== undefined },
        })),
      };
    } catch (error) {
      // Still running means the agent answered "cannot open" (unknown model, …) and exits by itself.
      if (incarnation.process.running) incarnation.expectedEnd = true;
      throw error;
    }
    current = incarnation;
    return incarnation;
  };

  const live = (): Promise<Incarnation> => {
    if (current?.process.running) return Promise.resolve(current);
    starting ??= start(facts.providerThreadId ?? thread.resumeProviderThreadId).finally(() => (starting = undefined));
    return starting;
  };

  await live();
  const providerThreadId = facts.providerThreadId;
  if (providerThreadId === undefined) throw new Error(`the ${providerId} agent of ${threadId} opened without a session id`);

  return {
    providerThreadId,
    async prompt(text) {
      if (disposed) throw new Error(`thread ${threadId} is closed`);
      await (await live()).process.request({ type: 'prompt', text });
    },
    async stop() {
      const incarnation = current ?? (await starting?.catch(() => undefined));
      if (!incarnation?.process.running) return;
      await incarnation.process.request({ type: 'stop' }).catch((error: unknown) => {
        if (incarnation.process.running) throw error; // a stop the agent refused; one it died during is done
      });
    },
    async setPermissionMode(mode) {
      permissionMode = mode;
      const incarnation = current ?? (await starting?.catch(() => undefined));
      if (!incarnation?.process.running) return;
      await incarnation.process.request({ type: 'setPermissionMode', mode }).catch((error: unknown) => {
        if (incarnation.process.running) throw error; // an agent that died meanwhile: its successor opens in `mode`
      });
    },
    checkpointId: () => facts.checkpointId,
    contextWindow: () => facts.contextWindow,
    async dispose() {
      if (disposed) return;
      disposed = true;
      const incarnation = current ?? (await starting?.catch(() => undefined));
      if (!incarnation?.process.running) return;
      incarnation.expectedEnd = true;
      // A hung extension must not hold up the daemon's shutdown for ever.
      const deadline = setTimeout(() => incarnation.process.kill(), options.disposeTimeoutMs);
      try {
        // An agent ended meanwhile (a terminal's Ctrl+C signals the daemon's whole process group, agents
        // included) is disposed: only one still running after a failed dispose is worth a line.
        await incarnation.process.request({ type: 'dispose' }).catch((error: unknown) => {
          if (incarnation.process.running) log(`thread ${threadId}: dispose failed: ${String(error)}`);
        });
        await incarnation.process.ended;
      } finally {
        clearTimeout(deadline);
      }
    },
  };
}
