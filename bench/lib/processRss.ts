import { readFileSync } from 'node:fs';
import { childrenOf } from '../../test/helpers/agents/processTree';

/** One process's resident set, from /proc (Linux); 0 for a process that ended meanwhile. */
export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** A process and every process below it (agents, their children): what the host pays for it. */
export function treeRssMb(pid = process.pid): number {
  return rssMb(pid) + childrenOf(pid).reduce((sum, child) => sum + treeRssMb(child), 0);
}
