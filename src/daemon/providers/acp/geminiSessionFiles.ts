import { open, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Gemini CLI (0.61) offers no ACP `session/delete`, so the host removes a deleted thread's session itself. Gemini
 * keeps a session under its runtime folder (`$GEMINI_CLI_HOME` or `$HOME`, then `.gemini`; `.cache/.gemini` under
 * macOS's sandbox-exec) in `tmp/<project>/`, where `<project>` is a name Gemini gives the folder it ran in
 * (`projects.json`): the conversation in `chats/session-<time>-<first 8 characters of the id>.jsonl` (`.json` from
 * older versions), and what its own delete also removes, `logs/session-<id>.jsonl`, `tool-outputs/session-<id>/`,
 * `<id>/` and its subagents' chats in `chats/<id>/`. Eight characters name more than one session, so a chat file
 * goes only when its record names the whole id (its first line; the whole file for `.json`), and the other paths
 * carry the whole id. Every project folder is looked in: the thread's folder may be gone, and Gemini's name for
 * it is its own. Resolves with the number of chat files removed.
 */
export async function removeGeminiSessionFiles(sessionId: string, env: NodeJS.ProcessEnv): Promise<number> {
  // An id is Gemini's UUID; anything that could climb out of a folder names no session of it.
  if (!/^[A-Za-z0-9_-]{8,}$/.test(sessionId)) return 0;
  const temp = path.join(geminiRuntimeDir(env), 'tmp');
  const projects = await readdir(temp, { withFileTypes: true }).catch(() => []);
  const removed = await Promise.all(
    projects
      .filter((entry) => entry.isDirectory() && entry.name !== 'bin')
      .map((entry) => removeFromProject(path.join(temp, entry.name), sessionId)),
  );
  return removed.reduce((sum, count) => sum + count, 0);
}

/** Gemini CLI's runtime folder, where its `tmp/<project>/chats/` are; found as Gemini CLI finds it, through its env. */
export function geminiRuntimeDir(env: NodeJS.ProcessEnv): string {
  const home = env['GEMINI_CLI_HOME'] || env['HOME'] || os.homedir();
  return env['SANDBOX'] === 'sandbox-exec' ? path.join(home, '.cache', '.gemini') : path.join(home, '.gemini');
}

async function removeFromProject(project: string, sessionId: string): Promise<number> {
  const chats = path.join(project, 'chats');
  const shortId = sessionId.slice(0, 8);
  const names = await readdir(chats).catch(() => [] as string[]);
  const candidates = names.filter(
    (name) => name.startsWith('session-') && (name.endsWith(`-${shortId}.jsonl`) || name.endsWith(`-${shortId}.json`)),
  );
  const ours: string[] = [];
  for (const name of candidates) if ((await sessionIdOf(path.join(chats, name))) === sessionId) ours.push(name);
  if (ours.length === 0) return 0;
  await Promise.all([
    ...ours.map((name) => rm(path.join(chats, name), { force: true })),
    rm(path.join(chats, sessionId), { recursive: true, force: true }),
    rm(path.join(project, 'logs', `session-${sessionId}.jsonl`), { force: true }),
    rm(path.join(project, 'tool-outputs', `session-${sessionId}`), { recursive: true, force: true }),
    rm(path.join(project, sessionId), { recursive: true, force: true }),
  ]);
  return ours.length;
}

/** The session id a chat file's record names: its first line (`.jsonl`), else the whole file (`.json`). */
async function sessionIdOf(file: string): Promise<string | undefined> {
  const head = await firstBytes(file, 4096);
  const firstLine = head.split('\n', 1)[0]!;
  return idIn(firstLine) ?? (file.endsWith('.json') ? idIn(await readFile(file, 'utf8').catch(() => '')) : undefined);
}

async function firstBytes(file: string, size: number): Promise<string> {
  const handle = await open(file, 'r').catch(() => undefined);
  if (!handle) return '';
  try {
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

function idIn(text: string): string | undefined {
  try {
    const record = JSON.parse(text) as unknown;
    const id = typeof record === 'object' && record !== null ? (record as { sessionId?: unknown }).sessionId : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
