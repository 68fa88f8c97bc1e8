import { setTimeout as sleep } from 'node:timers/promises';
import { collectGarbage } from './collectGarbage';

/**
 * Before a latency window: lets the store finish what the part before left it (a checkpoint syncing the
 * files of a 38k-row round takes up to ~0.5 s after the round's last ack), then collects what this process
 * built to offer (every frame's object and text, ~60 MB): promoted during the window, they triggered a full
 * collection of 10–35 ms inside it, which held a few hundred acks at once. The window then measures the
 * paced load alone.
 */
export async function settleBeforeTiming(quietMs = 1_500): Promise<void> {
  await sleep(quietMs);
  collectGarbage();
}
