import { readdirSync, readFileSync } from 'node:fs';

/** How often a group is checked for processes left while it ends. */
const POLL_MS = 50;

/**
 * Ends every process of the group `pgid` (an agent spawned detached leads its own group): SIGTERM, then
 * SIGKILL for what is left after `graceMs`; resolves once none is left running. Claude Code's own children
 * outlive claude-agent-acp's exit and would go on writing in the thread's folder and HOME.
 */
export async function endProcessGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  if (await gone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await gone(pgid, graceMs);
}

async function gone(pgid: number, timeoutMs: number): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; running(pgid);) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/**
 * Whether a process of the group still runs. An ended child of an ended agent stays a zombie until the init
 * process reaps it (seconds in a container whose init reaps slowly), so on Linux the group's members are read
 * from /proc and zombies do not count; elsewhere any member does.
 */
function running(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true;
  }
  return pids.some((pid) => {
    try {
      // `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z' && state !== 'X';
    } catch {
      return false; // ended while being read
    }
  });
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
