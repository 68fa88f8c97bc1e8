import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { StoredThreadEvent } from '../../../protocol/threadEvents';
import { replaceFile } from '../../../store/replaceFile';
import { rewindDir } from './rewindJournal';

/**
 * Where the agent's conversation was before each revert that moved it (`<data dir>/rewind/<threadId>.session.json`,
 * by the revert's ref base), so its unrevert moves it back there.
 */
const PointsSchema = z.record(z.string(), z.string().nullable());

const pointsFile = (dataDir: string, threadId: string) => path.join(rewindDir(dataDir), `${threadId}.session.json`);

async function readPoints(dataDir: string, threadId: string): Promise<Record<string, string | null>> {
  try {
    return PointsSchema.parse(JSON.parse(await fs.readFile(pointsFile(dataDir, threadId), 'utf8')));
  } catch {
    return {};
  }
}

export async function keepSessionPoint(dataDir: string, threadId: string, base: string, point: string | null): Promise<void> {
  await fs.mkdir(rewindDir(dataDir), { recursive: true });
  await replaceFile(pointsFile(dataDir, threadId), JSON.stringify({ ...(await readPoints(dataDir, threadId)), [base]: point }));
}

/** The point kept for that revert; undefined when the revert did not move the conversation. */
export async function sessionPointOf(dataDir: string, threadId: string, base: string): Promise<string | null | undefined> {
  const points = await readPoints(dataDir, threadId);
  return base in points ? points[base] : undefined;
}

export async function dropSessionPoint(dataDir: string, threadId: string, base: string): Promise<void> {
  const { [base]: _dropped, ...rest } = await readPoints(dataDir, threadId);
  if (_dropped !== undefined || Object.keys(rest).length > 0) await replaceFile(pointsFile(dataDir, threadId), JSON.stringify(rest));
}

/**
 * The agent's checkpoint at the end of the turn before `turnId` (its `turn/completed.providerCheckpointId`), null
 * when `turnId` is the thread's first turn (back to the conversation's start), undefined when the rows do not
 * know the turn.
 */
export function checkpointBefore(rows: readonly StoredThreadEvent[], turnId: string): string | null | undefined {
  const start = rows.findIndex((row) => row.type === 'turn/started' && row.turnId === turnId);
  if (start < 0) return undefined;
  const before = rows.slice(0, start).filter((row) => row.type === 'turn/completed');
  const last = before.at(-1);
  return last?.type === 'turn/completed' ? last.data.providerCheckpointId : null;
}
