import type { AgentSession } from '@mariozechner/pi-coding-agent';
import type { AgentThread } from '../agentProvider';
import type { ApprovalGate } from './approvalGate';
import { announceRetries } from './announceRetries';
import { promptSettledFrame, promptStartedFrame, sdkMessageFrame } from './piFrames';
import { createRunTracker } from './runTracker';

export interface PiThreadOptions {
  session: AgentSession;
  threadId: string;
  providerId: string;
  emit(frame: unknown): void;
  /** The thread's approvals extension, already loaded into `session`. */
  approvals: ApprovalGate;
  log(message: string): void;
  /** Says a pi error in the service's terms (explainPiError); the settle and the prompt's rejection carry it. */
  explainError(error: unknown): Error;
}

/**
 * One thread's pi session behind the AgentThread port: every SDK event goes out unchanged as `sdk/message`
 * (only `agent_end` gains pi 1.x's `willRetry`, see announceRetries);
 * each prompt is bracketed by `<id>/prompt/started` (right before the SDK call) and `<id>/prompt/settled`
 * (once the call resolved *and* the session is idle, so it can never overtake the run's `agent_end`).
 */
export async function startPiThread(options: PiThreadOptions): Promise<AgentThread> {
  const { session, threadId, providerId, log } = options;
  let disposed = false;
  const emitFrame = (frame: unknown) => {
    if (disposed) return;
    try {
      options.emit(frame);
    } catch (error) {
      log(`pi thread ${threadId}: emitting a frame failed: ${String(error)}`);
    }
  };
  const tracker = createRunTracker(session);
  const unsubscribe = session.subscribe(
    announceRetries((event) => {
      emitFrame(sdkMessageFrame(threadId, event));
      tracker.delivered(event);
    }),
  );
  // Starts the extensions (`session_start`) only now that we listen: one may trigger a run at once.
  await session.bindExtensions({
    onError: (failure) => log(`pi extension ${failure.extensionPath} failed on ${failure.event} in ${threadId}: ${failure.error}`),
  });

  const settleWhenIdle = async (run: Promise<void>) => {
    const error = await run.then(
      () => undefined,
      (failure: unknown) => failure ?? new Error('prompt failed'),
    );
    await tracker.whenIdle();
    emitFrame(promptSettledFrame(providerId, threadId, error));
  };

  const startPrompt = async (text: string): Promise<void> => {
    if (disposed) throw new Error(`thread ${threadId} is closed`);
    emitFrame(promptStartedFrame(providerId, threadId, text));
    let accept!: (accepted: boolean) => void;
    const acceptance = new Promise<boolean>((resolve) => (accept = resolve));
    // While a run streams, pi queues the prompt as a follow-up: it runs when the current work is done.
    const run = session.prompt(text, { streamingBehavior: 'followUp', source: 'rpc', preflightResult: accept }).catch((error: unknown) => {
      throw options.explainError(error);
    });
    run.then(
      () => accept(true),
      () => accept(false),
    );
    void settleWhenIdle(run).catch((error: unknown) => log(`pi thread ${threadId}: settle failed: ${String(error)}`));
    if (!(await acceptance)) await run;
  };

  // One prompt at a time until pi has taken it: two prompts racing into an idle session would both try to
  // start a run, and pi rejects the second instead of queueing it.
  let accepting: Promise<unknown> = Promise.resolve();

  return {
    providerThreadId: session.sessionId,
    prompt(text) {
      const accepted = accepting.then(() => startPrompt(text));
      accepting = accepted.catch(() => undefined);
      return accepted;
    },
    async stop() {
      // A stop ends the work, queued follow-ups included; otherwise pi would start them after the abort.
      if (session.pendingMessageCount > 0) session.clearQueue();
      await session.abort();
    },
    async setPermissionMode(mode) {
      options.approvals.setMode(mode);
    },
    checkpointId: () => session.sessionManager.getLeafId() ?? undefined,
    contextWindow: () => session.model?.contextWindow,
    async dispose() {
      if (disposed) return;
      // Open questions end first: a run held by one could otherwise never reach its abort.
      options.approvals.dispose();
      try {
        if (!tracker.isIdle()) {
          await session.abort();
          // Lets the aborted run's agent_end reach the pipeline before we stop listening.
          await tracker.whenIdle();
        }
        // What pi does when it quits, so extensions clear their timers and watchers.
        const runner = session.extensionRunner;
        if (runner.hasHandlers('session_shutdown')) await runner.emit({ type: 'session_shutdown', reason: 'quit' });
      } finally {
        disposed = true;
        unsubscribe();
        tracker.dispose();
        session.dispose();
      }
    },
  };
}
