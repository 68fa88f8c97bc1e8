import { rm } from 'node:fs/promises';
import { sessionFilesOf } from './sessionFiles';

/** Removes every file of one pi session (`<timestamp>_<sessionId>.jsonl`) from the thread's session folder. */
export async function deletePiSession(sessionId: string, sessionDir: string): Promise<void> {
  await Promise.all(sessionFilesOf(sessionDir, sessionId).map((file) => rm(file, { force: true })));
}
