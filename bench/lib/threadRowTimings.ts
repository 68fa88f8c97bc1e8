/**
 * Reads one thread's SSE stream and notes when each row arrived (wall clock, ms), so a bench can time the
 * path from an agent's update to a client: `until` resolves at the first row `done` accepts.
 */
export interface TimedRow {
  at: number;
  row: { seq: number; type: string; data: Record<string, unknown> };
}

export interface RowTimings {
  rows: TimedRow[];
  until(done: (row: TimedRow['row']) => boolean): Promise<TimedRow>;
  close(): void;
}

export const wallClockMs = (): number => performance.timeOrigin + performance.now();

export async function timeThreadRows(url: string, token: string): Promise<RowTimings> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
  if (!response.ok) throw new Error(`GET ${url} → ${response.status}`);
  const rows: TimedRow[] = [];
  const waiters: Array<() => void> = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const at = wallClockMs();
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = buffer
            .slice(0, end)
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          buffer = buffer.slice(end + 2);
          if (data) rows.push({ at, row: JSON.parse(data) });
        }
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // closed
    }
  })();
  return {
    rows,
    until: (done) =>
      new Promise((resolve) => {
        const check = () => {
          const found = rows.find((timed) => done(timed.row));
          if (found) resolve(found);
          else waiters.push(check);
        };
        check();
      }),
    close: () => controller.abort(),
  };
}
