import path from 'node:path';
import { z } from 'zod';

export interface SettingsSource {
  /** `ATS_` for the server, `ATS_DAEMON_` for a daemon: `maxBodyBytes` ↔ `ATS_MAX_BODY_BYTES`. */
  readonly envPrefix: string;
  /** Builds the error its CLI catches and prints as one line (each CLI keeps its own class). */
  readonly fail: (message: string) => Error;
  /** Settings whose flag may be given more than once: the values join with the path delimiter (a folder list). */
  readonly repeatable?: readonly string[];
}

/** `maxBodyBytes` → `--max-body-bytes`. */
export function flagName(key: string): string {
  return '--' + key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function envName(prefix: string, key: string): string {
  return prefix + key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();
}

/**
 * Reads a settings schema from env vars and then flags (a flag wins), `--name value` or `--name=value`.
 * Every failure names both spellings of the setting, so a person can fix whichever they used. A `dataDir`
 * is made absolute, because the process may change directory later and the lock is keyed by it.
 */
export function loadSettings<S extends z.ZodObject>(
  schema: S,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  source: SettingsSource,
): z.output<S> {
  const { fail } = source;
  const keys = Object.keys(schema.shape);
  const raw: Record<string, string> = {};
  for (const key of keys) {
    const value = env[envName(source.envPrefix, key)];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const repeated = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    const key = keys.find((k) => flagName(k) === flag);
    if (!key) throw fail(`unknown option ${flag} (known: ${keys.map(flagName).join(', ')})`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw fail(`option ${flag} needs a value`);
    // Flags win over the env var: the first flag replaces it, the next ones of a repeatable setting add to it.
    raw[key] = repeated.has(key) ? `${raw[key]}${path.delimiter}${value}` : value;
    if (source.repeatable?.includes(key)) repeated.add(key);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0]);
    const what = raw[key] === undefined ? 'missing' : 'invalid';
    throw fail(`${what} ${flagName(key)} / ${envName(source.envPrefix, key)}: ${issue.message}`);
  }
  return withAbsoluteDataDir(parsed.data);
}

export function withAbsoluteDataDir<T>(settings: T): T {
  const dataDir = (settings as { dataDir?: unknown }).dataDir;
  return typeof dataDir === 'string' ? { ...settings, dataDir: path.resolve(dataDir) } : settings;
}
