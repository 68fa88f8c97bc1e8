import type { AgentState } from '../../protocol/threadCommands';
import type { AgentThread } from '../providers/agentProvider';

/**
 * One thread's agent, started on demand and closed on demand, never two at once: a start asked for while a
 * close runs waits for the close and then starts a new agent (issue 28: a prompt racing the idle close is
 * never lost). `hold` marks the agent in use (a prompt being handed over), so no idle close takes it away
 * between the start and the moment its turn is open.
 */
export interface AgentSlot {
  state(): AgentState;
  /** The agent, started when there is none; rejects with the start's error (the next call tries again). */
  acquire(): Promise<AgentThread>;
  /** The agent running or starting now (undefined when none, or its start failed); starts nothing. */
  current(): Promise<AgentThread | undefined>;
  /** Runs `use` with the agent acquired and held: `held()` counts such uses. */
  hold<T>(use: (agent: AgentThread) => Promise<T>): Promise<T>;
  held(): number;
  /** Disposes the agent (waiting for one still starting); resolves at once when there is none. */
  close(): Promise<void>;
}

export interface AgentSlotDeps {
  start(): Promise<AgentThread>;
  /** Called once an agent is disposed (or failed to dispose), so shared maps forget it. */
  closed(agent: AgentThread): void;
  /** Called when a hold ends: the idle time counts from the last use. */
  released(): void;
  log(message: string): void;
}

export function createAgentSlot(deps: AgentSlotDeps): AgentSlot {
  let agent: Promise<AgentThread> | undefined;
  let running = false;
  let closing: Promise<void> | undefined;
  let holds = 0;

  const startAgent = (): Promise<AgentThread> => {
    const started = deps.start().then(
      (value) => {
        running = true;
        return value;
      },
      (error: unknown) => {
        if (agent === started) agent = undefined; // the next command tries again (e.g. after a key was added)
        throw error;
      },
    );
    return (agent = started);
  };

  const acquire = async (): Promise<AgentThread> => {
    while (closing) await closing;
    return agent ?? startAgent();
  };

  const close = (): Promise<void> => {
    if (closing) return closing;
    const closed = agent;
    if (!closed) return Promise.resolve();
    closing = closed
      .then(
        async (value) => {
          await value.dispose().catch((error: unknown) => deps.log(`an agent did not close cleanly: ${String(error)}`));
          deps.closed(value);
        },
        () => undefined,
      )
      .finally(() => {
        if (agent === closed) agent = undefined;
        running = false;
        closing = undefined;
      });
    return closing;
  };

  return {
    state: () => (!agent ? 'stopped' : running ? 'running' : 'starting'),
    acquire,
    current: async () => (agent ? agent.catch(() => undefined) : undefined),
    async hold(use) {
      holds += 1;
      try {
        return await use(await acquire());
      } finally {
        holds -= 1;
        deps.released();
      }
    },
    held: () => holds,
    close,
  };
}
