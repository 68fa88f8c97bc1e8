import { performance } from 'node:perf_hooks';

/**
 * Calls `offer(0)`, `offer(1)` … `offer(count - 1)` at `ratePerSecond`, in batches every `tickMs`; resolves
 * with the moment the first went out once the last has. Each tick catches up to the wall clock, so timer
 * jitter does not lower the offered rate.
 */
export function offerPaced(count: number, ratePerSecond: number, tickMs: number, offer: (index: number) => void): Promise<number> {
  const perTick = (ratePerSecond * tickMs) / 1000;
  const started = performance.now();
  let sent = 0;
  return new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(count, Math.floor(((performance.now() - started) / tickMs + 1) * perTick));
      for (; sent < due; sent += 1) offer(sent);
      if (sent < count) setTimeout(tick, tickMs);
      else resolve(started);
    };
    tick();
  });
}
