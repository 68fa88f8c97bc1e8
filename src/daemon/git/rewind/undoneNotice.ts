import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { StoredThreadEvent } from '../../../protocol/threadEvents';
import { replaceFile } from '../../../store/replaceFile';
import { rewindDir } from './rewindJournal';

/** How much of each undone turn's prompt the notice quotes. */
export const NOTICE_PROMPT_CHARS = 200;

/**
 * The turns a revert undid that the agent has not been told of yet, kept as `<data dir>/rewind/<threadId>.notice.json`
 * until the next prompt carries them (docs/rewind.md: no agent's own conversation is rewound yet, so every agent is
 * told). An unrevert before that prompt takes its turns off again.
 */
const NoticeSchema = z.object({ undoneTurnIds: z.array(z.string()) });

const noticeFile = (dataDir: string, threadId: string) => path.join(rewindDir(dataDir), `${threadId}.notice.json`);

async function readUndone(dataDir: string, threadId: string): Promise<string[]> {
  try {
    return NoticeSchema.parse(JSON.parse(await fs.readFile(noticeFile(dataDir, threadId), 'utf8'))).undoneTurnIds;
  } catch {
    return [];
  }
}

async function writeUndone(dataDir: string, threadId: string, turnIds: string[]): Promise<void> {
  if (turnIds.length === 0) return void (await fs.rm(noticeFile(dataDir, threadId), { force: true }));
  await fs.mkdir(rewindDir(dataDir), { recursive: true });
  await replaceFile(noticeFile(dataDir, threadId), JSON.stringify({ undoneTurnIds: turnIds }));
}

/** Idempotent: a step finished again after a kill adds nothing twice. */
export async function addUndone(dataDir: string, threadId: string, turnIds: readonly string[]): Promise<void> {
  const known = await readUndone(dataDir, threadId);
  await writeUndone(dataDir, threadId, [...known, ...turnIds.filter((id) => !known.includes(id))]);
}

export async function removeUndone(dataDir: string, threadId: string, turnIds: readonly string[]): Promise<void> {
  const known = await readUndone(dataDir, threadId);
  await writeUndone(
    dataDir,
    threadId,
    known.filter((id) => !turnIds.includes(id)),
  );
}

export async function pendingUndone(dataDir: string, threadId: string): Promise<string[]> {
  return readUndone(dataDir, threadId);
}

export async function clearUndone(dataDir: string, threadId: string): Promise<void> {
  await writeUndone(dataDir, threadId, []);
}

/**
 * The text put before the next prompt: which turns were undone, each by the start of what the user asked in it,
 * so the agent treats their changes as gone (its own conversation still holds them).
 */
export function noticeText(undoneTurnIds: readonly string[], rows: readonly StoredThreadEvent[]): string {
  const prompts = new Map<string, string>();
  for (const row of rows) {
    if (row.type !== 'item/completed' || row.turnId === null || !undoneTurnIds.includes(row.turnId) || prompts.has(row.turnId)) continue;
    const item = row.data.item;
    if (item.type !== 'userMessage') continue;
    const text = item.content.map((part) => (part.type === 'text' ? part.text : '[image]')).join(' ');
    prompts.set(row.turnId, text.length > NOTICE_PROMPT_CHARS ? `${text.slice(0, NOTICE_PROMPT_CHARS)}…` : text);
  }
  const lines = undoneTurnIds.map((id, index) => `${index + 1}. ${JSON.stringify(prompts.get(id) ?? `(turn ${id})`)}`);
  return [
    `[The user reverted this workspace's files to how they were before an earlier turn. The changes made in the`,
    `following ${undoneTurnIds.length === 1 ? 'turn are' : `${undoneTurnIds.length} turns are`} undone: the files no longer have them, so treat that work as not done.]`,
    ...lines,
  ].join('\n');
}
