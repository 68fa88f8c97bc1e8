import { acpPromptEndedFrame, acpPromptStartedFrame, acpUpdateFrame } from '../../../protocol/acpFrames';
import type { SessionModeState } from '@agentclientprotocol/sdk';
import type { AgentThread } from '../agentProvider';
import type { AcpThreadOptions } from './acpThreadOptions';
import { applyAgentMode } from './agentModes';
import { deleteAcpSession, withinDeleteTimeout } from './deleteAcpSession';
import type { AcpAgentProcess } from './spawnAcpAgent';
import { startAgentSession } from './startAgentSession';

/** How long a dispose waits for a cancelled prompt's answer before it closes the agent anyway. */
const DISPOSE_CANCEL_WAIT_MS = 2_000;
/** How long a failed prompt waits for the agent's exit, so the error can say how it ended. */
const EXIT_REASON_WAIT_MS = 500;

/**
 * One thread's ACP agent behind the AgentThread port: one process, one session. Each prompt is one
 * `session/prompt`, sent one at a time (a prompt while one runs waits as a follow-up), bracketed by
 * `acp/prompt/started` and `acp/prompt/ended`; every `session/update` goes out as `acp/update` in wire order.
 * An agent that died is started again, on the same session where it can resume, by the next prompt. Its
 * permission questions go to the daemon; a stop, the close or the agent's exit answers the open ones cancelled.
 */
export async function startAcpThread(options: AcpThreadOptions, cut?: AbortSignal): Promise<AgentThread> {
  const { threadId, log } = options;
  let disposed = false;
  let replaying = false;
  let contextWindow: number | undefined;
  let agent: AcpAgentProcess | undefined;
  let sessionId = options.resumeSessionId;
  let modes: SessionModeState | null | undefined;
  let canDelete = false;
  let permissionMode = options.permissionMode;
  /** Aborted by a stop or the close: ACP wants a cancelled prompt's open questions answered `cancelled`. */
  let questions = new AbortController();
  /** Aborted by a stop or the close: a start again under way (the agent died) is cut short. */
  let restarts = new AbortController();
  /** Ends an agent still running a prompt `stopGraceMs` after that prompt's `session/cancel`. */
  let deafTimer: NodeJS.Timeout | undefined;
  /** The prompt whose answer is awaited: its end is emitted once, from the wire or from the request's failure. */
  let current: { answered: boolean; done: Promise<void> } | undefined;
  const waiting: string[] = [];

  const emit = (frame: unknown) => {
    if (disposed && current === undefined) return;
    try {
      options.emit(frame);
    } catch (error) {
      log(`${options.name} thread ${threadId}: emitting a frame failed: ${String(error)}`);
    }
  };
  const endPrompt = (answer: { stopReason?: string; usage?: unknown; error?: unknown }) => {
    if (!current || current.answered) return;
    current.answered = true;
    emit(acpPromptEndedFrame(threadId, answer));
  };

  const start = async (signal: AbortSignal | undefined): Promise<AcpAgentProcess> => {
    const started = await startAgentSession(
      options,
      sessionId,
      {
        update(update) {
          if (replaying) return;
          if (update['sessionUpdate'] === 'usage_update' && typeof update['size'] === 'number') contextWindow = update['size'];
          emit(acpUpdateFrame(threadId, update));
        },
        promptAnswered: endPrompt,
        replaying: (on) => (replaying = on),
        lost(process, why) {
          if (agent === process) agent = undefined; // the next prompt starts it again
          if (!disposed) log(`${options.name} agent of thread ${threadId} is gone: ${why}`);
        },
        permissionMode: () => permissionMode,
        questionSignal: () => questions.signal,
      },
      signal,
    );
    ({ sessionId, modes, canDelete } = started);
    agent = started.agent;
    return started.agent;
  };

  const runPrompt = async (text: string): Promise<void> => {
    let finish!: () => void;
    current = { answered: false, done: new Promise<void>((resolve) => (finish = resolve)) };
    if (questions.signal.aborted) questions = new AbortController();
    if (restarts.signal.aborted) restarts = new AbortController();
    emit(acpPromptStartedFrame(threadId, text));
    let running: AcpAgentProcess;
    try {
      running = agent ?? (await start(restarts.signal)); // the agent died: start it again, on the same session where it can
    } catch (error) {
      endPrompt({ error: { message: error instanceof Error ? error.message : String(error) } });
      current = undefined;
      return finish();
    }
    // What a loaded session's agent sent before this prompt is its replayed history (openAcpSession.ts).
    replaying = false;
    try {
      await running.connection.agent.request(options.sdk.methods.agent.session.prompt, {
        sessionId: sessionId!,
        prompt: [{ type: 'text', text }],
      });
    } catch (error) {
      // No answer on the wire: the agent died or the connection closed. Say how the process ended.
      const how = await Promise.race([
        running.exited,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), EXIT_REASON_WAIT_MS)),
      ]);
      const stderr = running.stderrTail().split('\n').at(-1);
      endPrompt({
        error: { message: how ? `the ${options.name} agent exited (${how})${stderr ? `: ${stderr}` : ''}` : String(error) },
      });
    } finally {
      clearTimeout(deafTimer);
      current = undefined;
      finish();
    }
  };

  /**
   * A stopped prompt the agent has not answered `stopGraceMs` after its `session/cancel` (the turn grace has closed
   * its turn by then): the agent is deaf to stops, and would hold every later prompt behind this one. It is ended,
   * and the prompt's failure names why; the next prompt starts a fresh agent on the same session (issue 37).
   */
  const endIfDeaf = (stopped: NonNullable<typeof current>, running: AcpAgentProcess) => {
    clearTimeout(deafTimer);
    deafTimer = setTimeout(() => {
      if (current !== stopped || stopped.answered) return;
      log(`${options.name} thread ${threadId}: the agent did not stop within ${options.stopGraceMs} ms of session/cancel; ending it`);
      endPrompt({ error: { message: `the ${options.name} agent did not stop within ${options.stopGraceMs} ms, so it was ended` } });
      void running.close(0);
    }, options.stopGraceMs);
  };

  let draining: Promise<void> | undefined;
  const drain = async () => {
    for (let text = waiting.shift(); text !== undefined && !disposed; text = waiting.shift()) await runPrompt(text);
    draining = undefined;
  };

  await start(cut);

  return {
    get providerThreadId() {
      return sessionId!;
    },
    async prompt(text) {
      if (disposed) throw new Error(`thread ${threadId} is closed`);
      // An agent that died is started again by the prompt's run, not here: its start may take long (Gemini CLI
      // waits out its session's first minute), and a start that fails is that prompt's failed turn.
      waiting.push(text);
      draining ??= drain();
    },
    async stop() {
      waiting.length = 0; // a stop ends the work, queued follow-ups included
      questions.abort(new Error('the turn was stopped'));
      restarts.abort(new Error('stopped by the user before the agent started'));
      // An agent that no longer answers is not waited for: the turn's grace closes the turn (promptRules.ts).
      if (current && agent && sessionId) {
        endIfDeaf(current, agent);
        await agent.connection.agent
          .notify(options.sdk.methods.agent.session.cancel, { sessionId })
          .catch((error: unknown) => log(`${options.name} thread ${threadId}: session/cancel failed: ${String(error)}`));
      }
    },
    async setPermissionMode(mode) {
      permissionMode = mode; // a stopped agent takes it when the next prompt starts it again
      if (agent && sessionId) {
        await applyAgentMode(options.sdk, agent.connection, { sessionId, modes }, mode, (message) =>
          log(`${options.name} thread ${threadId}: ${message}`),
        );
      }
    },
    contextWindow: () => contextWindow,
    async deleteSession() {
      if (!agent || !sessionId || options.hostRemovesSession) return false;
      const deleted = sessionId;
      await withinDeleteTimeout(
        deleteAcpSession({
          sdk: options.sdk,
          connection: agent.connection,
          sessionId,
          canDelete,
          who: `${options.name} thread ${threadId}`,
          log,
          ...(options.afterDelete ? { afterDelete: () => options.afterDelete!(deleted) } : {}),
        }),
        options.deleteTimeoutMs,
      );
      return true;
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      waiting.length = 0;
      questions.abort(new Error('the thread was closed'));
      restarts.abort(new Error('the thread was closed before its agent started'));
      clearTimeout(deafTimer);
      const open = current;
      if (open && agent && sessionId) {
        await agent.connection.agent.notify(options.sdk.methods.agent.session.cancel, { sessionId }).catch(() => undefined);
        await Promise.race([open.done, new Promise((resolve) => setTimeout(resolve, DISPOSE_CANCEL_WAIT_MS))]);
      }
      await agent?.close();
      agent = undefined;
    },
  };
}
