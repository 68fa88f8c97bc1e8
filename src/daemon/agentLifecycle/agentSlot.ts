import type { AgentState } from '../../protocol/threadCommands';
import type { AgentThread } from '../providers/agentProvider';

/**
 * One thread's agent, started on demand and closed on demand, never two at once: a start asked for while a
 * close runs waits for the close and then starts a new agent (issue 28: a prompt racing the idle close is
 * never lost). `hold` marks the agent in use (a prompt being handed over), so no idle close takes it away
 * between the start and the moment its turn is open. A start can be cut short (a stop, a delete, the daemon's
 * close: issue 37): it rejects at once with the reason, and an agent its provider still delivers is disposed.
 */
export interface AgentSlot {
  state(): AgentState;
  /** The agent, started when there is none; rejects with the start's error (the next call tries again). */
  acquire(): Promise<AgentThread>;
  /** The agent running or starting now (undefined when none, or its start failed); starts nothing. */
  current(): Promise<AgentThread | undefined>;
  /** The agent when it runs now, read at once (the ingest's context window and checkpoint). */
  running(): AgentThread | undefined;
  /** Runs `use` with the agent acquired and held: `held()` counts such uses. */
  hold<T>(use: (agent: AgentThread) => Promise<T>): Promise<T>;
  held(): number;
  /** Ends a start under way, if any, with `reason`; a running agent is left alone. */
  cutShort(reason: Error): void;
  /** Disposes the agent (a start under way is cut short first, with `reason`); resolves at once when there is none. */
  close(reason?: Error): Promise<void>;
}

export interface AgentSlotDeps {
  /** Starts the agent; `signal` aborts when the start is cut short. */
  start(signal: AbortSignal): Promise<AgentThread>;
  /** Called when a hold ends: the idle time counts from the last use. */
  released(): void;
  log(message: string): void;
}

/** How long a start cut short is waited for to end what it started (a provider that ignores the signal is not). */
const CUT_SHORT_WAIT_MS = 1_000;

/** Resolves when `work` settles or `ms` passed, whichever is first. */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.then(noop, noop), late]);
  clearTimeout(timer);
}

const noop = () => undefined;

/** Why a close cuts a start short, when its caller names no reason. */
const CLOSED_WHILE_STARTING = new Error('the agent was closed while it started');

export function createAgentSlot(deps: AgentSlotDeps): AgentSlot {
  let agent: Promise<AgentThread> | undefined;
  let runningAgent: AgentThread | undefined;
  let starting: AbortController | undefined;
  let closing: Promise<void> | undefined;
  let holds = 0;

  const startAgent = (): Promise<AgentThread> => {
    const cut = new AbortController();
    starting = cut;
    const delivered = deps.start(cut.signal);
    // A provider that honours the signal ends what it started and rejects: that is awaited (briefly), so a stop or
    // a delete answers once the agent's process is gone.
    const cutShort = new Promise<never>((_, reject) =>
      cut.signal.addEventListener('abort', () => void settledWithin(delivered, CUT_SHORT_WAIT_MS).then(() => reject(cut.signal.reason)), {
        once: true,
      }),
    );
    // A provider that finishes a start it was told to cut short: its agent is not the thread's, and goes.
    void delivered.then(
      (late) => {
        if (cut.signal.aborted) void late.dispose().catch((error: unknown) => deps.log(`an agent did not close cleanly: ${String(error)}`));
      },
      () => undefined,
    );
    const started: Promise<AgentThread> = Promise.race([delivered, cutShort]).then(
      (value) => {
        if (starting === cut) starting = undefined;
        runningAgent = value;
        return value;
      },
      (error: unknown) => {
        if (starting === cut) starting = undefined;
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

  const cutShort = (reason: Error) => starting?.abort(reason);

  const close = (reason: Error = CLOSED_WHILE_STARTING): Promise<void> => {
    if (closing) return closing;
    const closed = agent;
    if (!closed) return Promise.resolve();
    cutShort(reason);
    closing = closed
      .then(
        (value) => value.dispose().catch((error: unknown) => deps.log(`an agent did not close cleanly: ${String(error)}`)),
        () => undefined,
      )
      .finally(() => {
        if (agent === closed) agent = undefined;
        runningAgent = undefined;
        closing = undefined;
      });
    return closing;
  };

  return {
    state: () => (!agent ? 'stopped' : runningAgent ? 'running' : 'starting'),
    acquire,
    current: async () => (agent ? agent.catch(() => undefined) : undefined),
    running: () => runningAgent,
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
    cutShort,
    close,
  };
}
