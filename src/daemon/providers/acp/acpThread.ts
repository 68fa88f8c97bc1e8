import { acpPromptEndedFrame, acpPromptStartedFrame } from '../../../protocol/acpFrames';
import type { AgentThread } from '../agentProvider';
import type { AcpThreadOptions } from './acpThreadOptions';
import { createAcpAgentHolder } from './acpAgentHolder';
import { acpSessionOps, promptFailure } from './acpSessionOps';
import type { AcpAgentProcess } from './spawnAcpAgent';

/** How long a dispose waits for a cancelled prompt's answer before it closes the agent anyway. */
const DISPOSE_CANCEL_WAIT_MS = 2_000;

/**
 * One thread's ACP agent behind the AgentThread port: one process, one session. Each prompt is one
 * `session/prompt`, sent one at a time (a prompt while one runs waits as a follow-up), bracketed by
 * `acp/prompt/started` and `acp/prompt/ended`; every `session/update` goes out as `acp/update` in wire order.
 * An agent that is gone is started again, on the same session where it can resume, by the next prompt. Its
 * permission questions go to the daemon; a stop, the close or the agent's exit answers the open ones cancelled.
 */
export async function startAcpThread(options: AcpThreadOptions, cut?: AbortSignal): Promise<AgentThread> {
  const { threadId, log } = options;
  let disposed = false;
  let permissionMode = options.permissionMode;
  /** Aborted by a stop or the close: ACP wants a cancelled prompt's open questions answered `cancelled`. */
  let questions = new AbortController();
  /** Aborted by a stop or the close: a start again under way (the agent was gone) is cut short. */
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
    holder.promptEnded();
    emit(acpPromptEndedFrame(threadId, answer));
  };
  const holder = createAcpAgentHolder(options, {
    emit,
    promptAnswered: endPrompt,
    permissionMode: () => permissionMode,
    questionSignal: () => questions.signal,
    disposed: () => disposed,
  });
  const { live } = holder;
  const ops = acpSessionOps(options, () => live);

  const runPrompt = async (text: string): Promise<void> => {
    let finish!: () => void;
    current = { answered: false, done: new Promise<void>((resolve) => (finish = resolve)) };
    if (questions.signal.aborted) questions = new AbortController();
    if (restarts.signal.aborted) restarts = new AbortController();
    holder.promptStarting();
    emit(acpPromptStartedFrame(threadId, text));
    try {
      const running = await holder.running(restarts.signal).catch((error: unknown) => {
        endPrompt({ error: { message: error instanceof Error ? error.message : String(error) } });
      });
      if (!running) return;
      holder.historyReplayed();
      await running.connection.agent
        .request(options.sdk.methods.agent.session.prompt, { sessionId: live.sessionId!, prompt: [{ type: 'text', text }] })
        .catch(async (error: unknown) => endPrompt({ error: await promptFailure(options.name, running, error) }));
    } finally {
      clearTimeout(deafTimer);
      current = undefined;
      finish();
    }
  };

  const endIfDeaf = (stopped: NonNullable<typeof current>, running: AcpAgentProcess) => {
    clearTimeout(deafTimer);
    deafTimer = endWhenDeaf(options, running, () => current === stopped && !stopped.answered, endPrompt);
  };

  let draining: Promise<void> | undefined;
  const drain = async () => {
    for (let text = waiting.shift(); text !== undefined && !disposed; text = waiting.shift()) await runPrompt(text);
    draining = undefined;
  };

  await holder.start(cut);

  return {
    get providerThreadId() {
      return live.sessionId!;
    },
    async prompt(text) {
      if (disposed) throw new Error(`thread ${threadId} is closed`);
      // An agent that is gone is started again by the prompt's run, not here: its start may take long (Gemini CLI
      // waits out its session's first minute), and a start that fails is that prompt's failed turn.
      waiting.push(text);
      draining ??= drain();
    },
    async stop() {
      waiting.length = 0; // a stop ends the work, queued follow-ups included
      questions.abort(new Error('the turn was stopped'));
      restarts.abort(new Error('stopped by the user before the agent started'));
      // An agent that no longer answers is not waited for: the turn's grace closes the turn (promptRules.ts).
      if (!current || !live.agent) return;
      endIfDeaf(current, live.agent);
      await ops.cancel();
    },
    async setPermissionMode(mode) {
      permissionMode = mode; // a stopped agent takes it when the next prompt starts it again
      await ops.setAgentMode(mode);
    },
    contextWindow: holder.contextWindow,
    checkpointId: holder.checkpointId,
    deleteSession: ops.deleteSession,
    async dispose() {
      if (disposed) return;
      disposed = true;
      waiting.length = 0;
      questions.abort(new Error('the thread was closed'));
      restarts.abort(new Error('the thread was closed before its agent started'));
      clearTimeout(deafTimer);
      const open = current;
      if (open && live.agent) {
        await ops.cancel();
        await Promise.race([open.done, new Promise((resolve) => setTimeout(resolve, DISPOSE_CANCEL_WAIT_MS))]);
      }
      await holder.close();
    },
  };
}

/**
 * A stopped prompt the agent has not answered `stopGraceMs` after its `session/cancel` (the turn grace has closed its
 * turn by then): the agent is deaf to stops, and would hold every later prompt behind this one. It is ended, and the
 * prompt's failure names why; the next prompt starts a fresh agent on the same session (issue 37).
 */
function endWhenDeaf(
  options: AcpThreadOptions,
  running: AcpAgentProcess,
  unanswered: () => boolean,
  endPrompt: (answer: { error: { message: string } }) => void,
): NodeJS.Timeout {
  return setTimeout(() => {
    if (!unanswered()) return;
    options.log(
      `${options.name} thread ${options.threadId}: the agent did not stop within ${options.stopGraceMs} ms of session/cancel; ending it`,
    );
    endPrompt({ error: { message: `the ${options.name} agent did not stop within ${options.stopGraceMs} ms, so it was ended` } });
    void running.close(0);
  }, options.stopGraceMs);
}
