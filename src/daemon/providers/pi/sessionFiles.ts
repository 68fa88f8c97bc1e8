import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * pi names a session file `<timestamp>_<sessionId>.jsonl` in its session folder, and writes it only once the
 * session has its first assistant message; so a session that never got an answer has no file yet.
 */
export function findSessionFile(sessionDir: string, sessionId: string): string | undefined {
  let names: string[];
  try {
    names = readdirSync(sessionDir);
  } catch {
    return undefined;
  }
  const name = names
    .filter((candidate) => candidate.endsWith(`_${sessionId}.jsonl`))
    .sort()
    .pop();
  return name === undefined ? undefined : path.join(sessionDir, name);
}
