import type { ThreadSession } from './threadSession';

/**
 * A thread delete asks the thread's running agent, if any, to delete its own session, after the open turn was
 * stopped and before the agent closes (an ACP agent's `session/delete`): no agent is started again for it later.
 * True when that was tried (a failure or a hung agent is logged: the rows' delete goes on); false when no agent
 * runs or the provider removes sessions only without one (`removeProviderSession`, after the close).
 */
export async function deleteSessionThroughAgent(
  session: ThreadSession | undefined,
  threadId: string,
  log: (message: string) => void,
): Promise<boolean> {
  if (session?.agent.state() !== 'running') return false;
  const agent = await session.agent.current();
  if (!agent?.deleteSession) return false;
  return agent.deleteSession().catch((error: unknown) => {
    log(
      `thread ${threadId}: the ${session.provider?.id ?? 'agent'} session was not removed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return true;
  });
}
