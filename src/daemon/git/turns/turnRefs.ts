import { listRefs, setRef, turnsPrefix } from '../ownRefs';

/** The trees recorded at one turn's edges; `end` is null while the turn runs (or if it never closed). */
export interface TurnTrees {
  turnId: string;
  start: string;
  end: string | null;
}

/** A turn id as a ref name part: itself when plainly safe (and not starting with `x`), else `x` and its UTF-8 in hex. */
export function refPart(turnId: string): string {
  return /^(?!x)[A-Za-z0-9_-]{1,120}$/.test(turnId) ? turnId : `x${Buffer.from(turnId, 'utf8').toString('hex')}`;
}

export function turnIdOf(part: string): string {
  return part.startsWith('x') ? Buffer.from(part.slice(1), 'hex').toString('utf8') : part;
}

/**
 * `refs/ats/turns/<threadId>/<startedAt>-<turnId>/start` (and `…/end`): the start time, zero-padded
 * milliseconds, orders a thread's turns by name, so "the last turn" needs no other record.
 */
export function turnRefBase(threadId: string, turnId: string, startedAt: number): string {
  return `${turnsPrefix(threadId)}${String(startedAt).padStart(15, '0')}-${refPart(turnId)}`;
}

export async function recordEdge(cwd: string, refBase: string, edge: 'start' | 'end', tree: string): Promise<void> {
  await setRef(cwd, `${refBase}/${edge}`, tree);
}

/** The turn's trees (the last turn with a start when `turnId` is absent), or null when none was recorded. */
export async function findTurn(cwd: string, threadId: string, turnId?: string): Promise<TurnTrees | null> {
  const recorded = await recordedTurns(cwd, threadId);
  if (turnId !== undefined) return recorded.reverse().find((turn) => turn.turnId === turnId) ?? null;
  return recorded.at(-1) ?? null;
}

/** Every turn of the thread with a recorded start, oldest first. */
export async function recordedTurns(cwd: string, threadId: string): Promise<TurnTrees[]> {
  const refs = await listRefs(cwd, turnsPrefix(threadId));
  const turns = new Map<string, TurnTrees>();
  for (const [ref, object] of [...refs].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const match = /\/\d{15}-([^/]+)\/(start|end)$/.exec(ref);
    if (!match) continue;
    const base = ref.slice(0, ref.lastIndexOf('/'));
    const id = turnIdOf(match[1]!);
    const turn = turns.get(base) ?? { turnId: id, start: '', end: null };
    if (match[2] === 'start') turn.start = object;
    else turn.end = object;
    turns.set(base, turn);
  }
  return [...turns.values()].filter((turn) => turn.start !== '');
}
