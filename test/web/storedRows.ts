import type { StoredThreadEvent } from '../../src/protocol/threadEvents';

/**
 * Stored rows of one thread for the page's fold tests: seqs 1, 2, 3… in the order built, each in `turnId`'s
 * scope (thread-scoped when null). `reset` starts the seqs again (call it before each test).
 */
export function storedRows(defaultTurnId: string | null) {
  let seq = 0;
  return {
    reset: () => {
      seq = 0;
    },
    row: (type: string, data: Record<string, unknown>, turnId: string | null = defaultTurnId): StoredThreadEvent =>
      ({
        id: `r${++seq}`,
        threadId: 'thr_1',
        seq,
        type,
        turnId,
        scope: turnId ? { kind: 'turn', turnId } : { kind: 'thread' },
        data: { providerThreadId: 'p', ...data },
        createdAt: new Date().toISOString(),
      }) as unknown as StoredThreadEvent,
  };
}
