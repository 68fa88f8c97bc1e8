import type { StoredThreadEvent } from '../../../src/store/eventStore';

/**
 * What a client reading one thread's events relies on: gapless seqs, every turn completed exactly once,
 * every row inside a turn carrying that turn's id (E7), every item's completed text equal to its deltas, every
 * item completed once with the type it started with, output deltas only for a running command, and no item
 * still running when its turn completes.
 * Returns the violations (empty when the thread reads correctly).
 */
export function threadViolations(rows: readonly StoredThreadEvent[], options: { allowOpenTurnAtEnd?: boolean } = {}): string[] {
  const problems: string[] = [];
  rows.forEach((row, i) => {
    if (row.seq !== i + 1) problems.push(`seq ${row.seq} at position ${i + 1}`);
  });
  let openTurn: string | null = null;
  const completedTurns = new Set<string>();
  const itemText = new Map<string, string>();
  const completedItems = new Set<string>();
  const runningItems = new Map<string, string>(); // id → item type
  for (const row of rows) {
    const data = row.data as Record<string, any>;
    if (row.type === 'turn/started') {
      if (openTurn) problems.push(`seq ${row.seq}: turn/started while turn ${openTurn} is open`);
      if (row.turnId === null || completedTurns.has(row.turnId)) problems.push(`seq ${row.seq}: turn id reused or missing`);
      openTurn = row.turnId;
      continue;
    }
    if (openTurn && row.turnId !== openTurn) problems.push(`seq ${row.seq}: ${row.type} carries ${row.turnId}, open turn is ${openTurn}`);
    if (row.type === 'turn/completed') {
      for (const id of runningItems.keys()) problems.push(`seq ${row.seq}: turn completed while item ${id} still runs`);
      runningItems.clear();
      if (!openTurn) problems.push(`seq ${row.seq}: turn/completed with no open turn`);
      else completedTurns.add(openTurn);
      openTurn = null;
    }
    if (row.type === 'item/started') {
      if (runningItems.has(data['item'].id)) problems.push(`seq ${row.seq}: item ${data['item'].id} started twice`);
      runningItems.set(data['item'].id, data['item'].type);
      itemText.set(data['item'].id, '');
    }
    if (row.type === 'item/commandExecution/outputDelta' && runningItems.get(data['itemId']) !== 'commandExecution') {
      problems.push(`seq ${row.seq}: output delta for ${data['itemId']}, which is not a running command`);
    }
    if (row.type === 'item/agentMessage/delta') itemText.set(data['itemId'], (itemText.get(data['itemId']) ?? '') + data['delta']);
    if (row.type === 'item/completed') {
      const id = data['item'].id as string;
      if (completedItems.has(id)) problems.push(`seq ${row.seq}: item ${id} completed twice`);
      completedItems.add(id);
      if (runningItems.has(id) && runningItems.get(id) !== data['item'].type) problems.push(`seq ${row.seq}: item ${id} changed its type`);
      runningItems.delete(id);
      const streamed = itemText.get(id);
      if (streamed === undefined) problems.push(`seq ${row.seq}: item ${id} completed but never started`);
      else if (streamed !== '' && streamed !== data['item'].text) problems.push(`seq ${row.seq}: item text differs from its deltas`);
    }
  }
  if (openTurn && !options.allowOpenTurnAtEnd) problems.push(`turn ${openTurn} never completed`);
  return problems;
}
