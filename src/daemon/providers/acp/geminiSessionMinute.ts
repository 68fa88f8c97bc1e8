import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { geminiRuntimeDir } from './geminiSessionFiles';

/** What is added to the minute's end, so Gemini CLI's own clock reading is surely in the next one. */
const MARGIN_MS = 250;

/**
 * Gemini CLI 0.61 names a session's file by the minute its recording started (`~/.gemini/tmp/<project>/chats/
 * session-<YYYY-MM-DDTHH-MM>-<first 8 of the id>.jsonl`, UTC), and `session/load` starts a new recording under
 * that id before it reads the file. In the minute the session was made, the new recording's name is the old file's:
 * it appends a fresh conversation (`$set: {messages: [context]}`), which wipes the earlier turns for good, and the
 * load then fails with "No previous sessions found for this project". A minute later the new recording is a file
 * of its own and the load finds the conversation. So before a load, when the session has a file named with the
 * current minute, this waits for the next minute (at most 60 s; only an agent started again within a minute of
 * its session's start, e.g. after a daemon restart, ever waits). Found through the agent's env, as the delete finds
 * them (`geminiRuntimeDir`). test/providers/acp/realGeminiSessions.test.ts fails if Gemini CLI changes this.
 */
export async function waitOutGeminiSessionMinute(
  sessionId: string,
  env: NodeJS.ProcessEnv,
  log: (message: string) => void,
  now: () => number = Date.now,
): Promise<void> {
  const at = now();
  const fileName = `session-${new Date(at).toISOString().slice(0, 16).replace(/:/g, '-')}-${sessionId.slice(0, 8)}.jsonl`;
  const projects = path.join(geminiRuntimeDir(env), 'tmp');
  const names = await readdir(projects).catch(() => [] as string[]);
  const found = await Promise.all(
    names.map((name) =>
      access(path.join(projects, name, 'chats', fileName)).then(
        () => true,
        () => false,
      ),
    ),
  );
  if (!found.includes(true)) return;
  const waitMs = 60_000 - (at % 60_000) + MARGIN_MS;
  log(`waiting ${waitMs} ms before loading session ${sessionId}: Gemini CLI overwrites a session loaded in the minute it was made`);
  await new Promise((resolve) => setTimeout(resolve, waitMs));
}
