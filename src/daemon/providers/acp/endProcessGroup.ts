/** How often a group is checked for processes left while it ends. */
const POLL_MS = 50;

/**
 * Ends every process of the group `pgid` (an agent spawned detached leads its own group): SIGTERM, then
 * SIGKILL for what is left after `graceMs`; resolves once none is left. Claude Code's own children outlive
 * claude-agent-acp's exit and would go on writing in the thread's folder and HOME.
 */
export async function endProcessGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  if (await gone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  // Until the kernel has reaped them; a parent that never reaps is not ours to wait for longer.
  await gone(pgid, graceMs);
}

async function gone(pgid: number, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; signalGroup(pgid, 0); ) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/** False when no process of the group is left (ESRCH). */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}
