import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * pi names a session file `<timestamp>_<sessionId>.jsonl` in its session folder, and writes it only once the
 * session has its first assistant message; so a session that never got an answer has no file yet.
 */
export function findSessionFile(sessionDir: string, sessionId: string): string | undefined {
  return sessionFilesOf(sessionDir, sessionId).pop();
}

/** Every file of the session, oldest first (a session forked again keeps its id under a new timestamp). */
export function sessionFilesOf(sessionDir: string, sessionId: string): string[] {
  let names: string[];
  try {
    names = readdirSync(sessionDir);
  } catch {
    return [];
  }
  return names
    .filter((candidate) => candidate.endsWith(`_${sessionId}.jsonl`))
    .sort()
    .map((name) => path.join(sessionDir, name));
}
