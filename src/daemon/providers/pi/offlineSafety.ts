/**
 * pi's `grep`/`find` tools (and pi packages listed in settings.json) download `rg`/`fd`/packages from the
 * internet when they are missing, unless `PI_OFFLINE` is set. The daemon must never reach outside the machine
 * on its own, so unless the user decided otherwise (PI_OFFLINE already set, or `allowDownloads`), pi runs
 * offline. pi reads the variable at call time, so setting it once for the process is enough.
 */
export function ensurePiOffline(env: NodeJS.ProcessEnv, allowDownloads: boolean): void {
  if (!allowDownloads && env.PI_OFFLINE === undefined) env.PI_OFFLINE = '1';
}
