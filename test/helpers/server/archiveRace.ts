import type { TestServer } from './harness';
import type { ThreadEvent } from './threadRows';

export interface RaceRound {
  round: number;
  /** `archived` on the record (GET /threads/:id) once every PATCH of the round answered. */
  record: boolean;
  /** `archived` in the thread's last `thread/updated` row (what SSE readers and the page follow). */
  lastRow: boolean | undefined;
}

/**
 * Issue 37's archive race: `rounds` times, `concurrency` PATCHes `{archived: random}` of one thread sent at
 * once, spread over `servers` in turn (two replicas: half through each); after each round, the record's
 * `archived` and the last `thread/updated` row's, as any reader would read them.
 */
export async function archiveRace(servers: TestServer[], threadId: string, rounds: number, concurrency: number): Promise<RaceRound[]> {
  const results: RaceRound[] = [];
  for (let round = 0; round < rounds; round++) {
    const answers = await Promise.all(
      Array.from({ length: concurrency }, (_, i) =>
        servers[i % servers.length]!.api(`/threads/${threadId}`, { method: 'PATCH', body: { archived: Math.random() < 0.5 } }),
      ),
    );
    for (const answer of answers) if (answer.status !== 200) throw new Error(`PATCH → ${answer.status} ${await answer.text()}`);
    const reader = servers[round % servers.length]!;
    const record = (await reader.json(`/threads/${threadId}`)).archived as boolean;
    const tail: ThreadEvent[] = await reader.json(`/threads/${threadId}/events?tail=true&limit=100`);
    const lastRow = tail.filter((row) => row.type === 'thread/updated' && 'archived' in row.data).at(-1)?.data.archived;
    results.push({ round, record, lastRow });
  }
  return results;
}

/** The rounds whose record and last row disagree (a round with no row yet reads as not archived). */
export const disagreeing = (rounds: RaceRound[]) => rounds.filter(({ record, lastRow }) => record !== (lastRow ?? false));
