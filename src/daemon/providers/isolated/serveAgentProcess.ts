import { firstLineOf } from '../../../protocol/errorMessages';
import type { AgentProvider, AgentThread } from '../agentProvider';
import { AgentCommandSchema, type AgentCommand, type AgentFacts, type AgentReport } from './agentProcessMessages';
import { createRemoteAskUser } from './remoteAskUser';

/**
 * The body of one thread's agent process: builds the provider, opens the thread's agent in it, and runs the
 * daemon's commands against it. Whatever the agent does wrong here (an extension's timer throwing,
 * `process.exit`, running out of memory) ends this process and this thread's run only. Two entries call it:
 * `agentProcessMain` (any provider, named on the command line) and the bundled pi agent (`piAgentProcessMain`).
 */
/** How long a dying agent process waits for its last messages to reach the daemon. */
const FLUSH_LIMIT_MS = 2_000;

export function serveAgentProcess(createProvider: (log: (message: string) => void) => AgentProvider): void {
  // Sends that Node has not flushed yet: an exit must wait for them, or the last frames and the reason are lost
  // (measured: 2000 frames sent right before an uncaught exception, ~600 arrived).
  let unsent = 0;
  let exitWhenFlushed: number | undefined;
  const report = (message: AgentReport) => {
    if (!process.connected) return;
    unsent += 1;
    process.send!(message, undefined, undefined, () => {
      unsent -= 1;
      if (unsent === 0 && exitWhenFlushed !== undefined) process.exit(exitWhenFlushed);
    });
  };
  const exitAfterFlush = (code: number) => {
    exitWhenFlushed = code;
    if (unsent === 0 || !process.connected) process.exit(code);
    // The daemon's side may have stopped reading; never hang on it.
    setTimeout(() => process.exit(code), FLUSH_LIMIT_MS).unref();
  };
  // Carrying on after an uncaught exception is unsafe; saying why before exiting lets the daemon tell the user.
  process.on('uncaughtException', (error) => {
    report({ type: 'fatal', message: firstLine(error) });
    exitAfterFlush(1);
  });
  // The daemon is gone (or dropped us): an agent nobody listens to must not keep running and editing files.
  process.on('disconnect', () => void shutDown().finally(() => process.exit(0)));

  const provider = createProvider((message: string) => report({ type: 'log', message }));

  const questions = createRemoteAskUser(report);
  let thread: AgentThread | undefined;
  const factsOf = (): AgentFacts => ({
    providerThreadId: thread?.providerThreadId,
    checkpointId: thread?.checkpointId?.(),
    contextWindow: thread?.contextWindow?.(),
  });

  async function shutDown(): Promise<void> {
    const closing = thread;
    thread = undefined;
    questions.cancelAll('the thread was closed');
    await closing?.dispose();
  }

  async function run(command: Exclude<AgentCommand, { type: 'answer' }>): Promise<void> {
    switch (command.type) {
      case 'open': {
        const { canAskUser, ...options } = command.options;
        thread = await provider.openThread({
          ...options,
          ...(canAskUser ? { askUser: questions.askUser } : {}),
          emit: (frame) => report({ type: 'frame', frame, facts: factsOf() }),
        });
        return;
      }
      case 'prompt':
        return mustHaveThread().prompt(command.text);
      case 'stop':
        return thread?.stop();
      case 'dispose':
        return shutDown();
      case 'setPermissionMode':
        return mustHaveThread().setPermissionMode?.(command.mode);
    }
  }

  function mustHaveThread(): AgentThread {
    if (!thread) throw new Error('the agent is not open');
    return thread;
  }

  process.on('message', (raw) => {
    const parsed = AgentCommandSchema.safeParse(raw);
    if (!parsed.success) {
      report({ type: 'log', message: `agent process: ignored a malformed command: ${parsed.error.message}` });
      return;
    }
    const command = parsed.data;
    if (command.type === 'answer') return questions.answer(command.questionId, command.decision);
    run(command).then(
      () => {
        report({ type: 'reply', id: command.id, facts: factsOf() });
        if (command.type === 'dispose') exitAfterFlush(0);
      },
      (error: unknown) => {
        report({ type: 'failed', id: command.id, message: error instanceof Error ? error.message : String(error) });
        // An agent that could not open is of no further use; one that refused a prompt still runs.
        if (command.type === 'open' || command.type === 'dispose') exitAfterFlush(0);
      },
    );
  });
}

/** With the error's name (`TypeError: …`): a crash reason, where the kind of error helps. */
function firstLine(error: unknown): string {
  return firstLineOf(error instanceof Error ? `${error.name}: ${error.message}` : error);
}
