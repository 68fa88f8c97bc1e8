import type { AgentState, Thread } from '../../api/types';
import { ProblemText } from './ProblemText';
import { useThreadChange } from './useThreadChange';

const AGENT_STATE_TEXT: Record<AgentState, string> = { stopped: 'Stopped', starting: 'Starting…', running: 'Running' };

/**
 * The agent's process, in the header: whether it runs (agents start on a prompt and stop when idle), and
 * the "Keep agent running" toggle for extensions whose timers or watchers start turns by themselves.
 */
export function AgentControls({ thread, onChanged }: { thread: Thread; onChanged(thread: Thread): void }) {
  const { pending, problem, change } = useThreadChange(thread.id, onChanged);
  const kept = pending?.keepAgentRunning ?? thread.keepAgentRunning ?? false;
  return (
    <span class="agent-controls">
      {thread.agent && (
        <span class={`agent-state ${thread.agent}`} aria-label="Agent process">
          Agent: {AGENT_STATE_TEXT[thread.agent]}
        </span>
      )}
      {!thread.archived && (
        <label class="keep-running">
          <input
            type="checkbox"
            checked={kept}
            disabled={pending !== null}
            aria-describedby="keep-running-hint"
            onChange={(event) => void change({ keepAgentRunning: event.currentTarget.checked })}
          />{' '}
          Keep agent running{' '}
          <span id="keep-running-hint" class="muted hint">
            (for extensions with timers: the agent does not stop when idle)
          </span>
        </label>
      )}
      <ProblemText problem={problem} />
    </span>
  );
}
