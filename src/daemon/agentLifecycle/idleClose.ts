/**
 * Closes a thread's agent once it has been idle for `idleMs`: no frame, no command holding it, no open turn
 * and no question waiting for the user. Every sign of activity (`touch`) starts the count again; a turn or a
 * question that is still open when the time is up looks again one period later (a long tool call emits
 * nothing, an unanswered question neither, and both keep the agent).
 */
export interface IdleClose {
  touch(): void;
  cancel(): void;
}

export interface IdleCloseDeps {
  idleMs: number;
  /** False when closing is out of the question now and needs no later look (no agent, kept running, held). */
  closable(): boolean;
  /** True when the thread has no open turn and no pending question (read from the ingest). */
  quiet(): Promise<boolean>;
  close(): Promise<void>;
  log(message: string): void;
}

export function createIdleClose(deps: IdleCloseDeps): IdleClose {
  let timer: NodeJS.Timeout | undefined;
  let generation = 0;

  const cancel = () => {
    generation += 1;
    if (timer) clearTimeout(timer);
    timer = undefined;
  };

  const touch = () => {
    cancel();
    if (!deps.closable()) return;
    const mine = generation;
    // Never keeps a daemon alive by itself.
    timer = setTimeout(() => void expire(mine), deps.idleMs).unref();
  };

  const expire = async (mine: number) => {
    const quiet = await deps.quiet().catch(() => false);
    if (mine !== generation) return; // something happened meanwhile: that touch counts from now
    if (!quiet) return touch();
    // Checked again with nothing awaited before the close begins: a prompt that arrived during the read
    // holds the agent, and a prompt arriving after this waits for the close and starts a new one.
    if (!deps.closable()) return;
    timer = undefined;
    await deps.close().catch((error: unknown) => deps.log(`idle close failed: ${String(error)}`));
  };

  return { touch, cancel };
}
