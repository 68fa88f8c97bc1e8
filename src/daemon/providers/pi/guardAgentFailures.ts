let installed = false;

/**
 * Extensions run inside the daemon process: a promise one of them rejects without a handler would, by Node's
 * default, end the process and every other thread with it. Once per process, such rejections are logged
 * instead. (An exception thrown synchronously from an extension's own timer still ends the process; that is
 * the price of running pi in-process.)
 */
export function guardAgentFailures(log: (message: string) => void): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    log(`unhandled rejection inside an agent (daemon keeps running): ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`);
  });
}
