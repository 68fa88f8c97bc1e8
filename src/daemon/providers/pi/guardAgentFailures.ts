let installed = false;

/**
 * Extensions run inside the daemon process: a promise one of them rejects without a handler would, by Node's
 * default, end the process and every other thread with it. Once per process, such rejections are logged
 * instead.
 *
 * Why every unhandled rejection and not only the agents': Node names no origin for one, and a stack does not
 * tell either (an `fs` or socket error an extension forgets to await carries no frame of the extension), so a
 * narrower filter would still let the common case end the daemon. The daemon's own code is written to catch
 * its promises (frame hand-offs, settles and host commands all do), so what reaches here is in practice agent
 * code, and logging it costs one thread's run at most instead of every thread's. Node's
 * `--unhandled-rejections=strict` still ends the process, for whoever prefers that.
 *
 * An exception thrown synchronously from an extension's own timer is not a rejection and still ends the
 * process (resuming after `uncaughtException` is unsafe); which is why the daemon runs each thread's agent in
 * a process of its own (providers/isolated), where this guard runs too and such a crash ends one thread's run.
 * Tested in a process of its own: test/providers/pi/piCrashContainment.test.ts.
 */
export function guardAgentFailures(log: (message: string) => void): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    log(
      `unhandled rejection, most likely from agent extension code (the daemon keeps running): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`,
    );
  });
}
