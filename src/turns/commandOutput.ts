import { messageTextOf, ToolResultSchema } from '../protocol/sdkEvents';

/** A bash `partialResult`: pi's output *so far* (the tail it keeps), not what is new since the last update. */
export interface OutputSnapshot {
  text: string;
  /** pi's count of every output byte so far; only sent once pi truncates (`details.truncation.totalBytes`). */
  totalBytes: number | undefined;
}

export interface OutputProgress {
  /** The last snapshot's text. */
  output: string;
  /** Output bytes seen so far, by pi's count when it gave one. */
  outputBytes: number;
}

/** Reads a bash `partialResult` leniently; undefined when it carries no content to show. */
export function outputSnapshotOf(partialResult: unknown): OutputSnapshot | undefined {
  const parsed = ToolResultSchema.safeParse(partialResult);
  if (!parsed.success || parsed.data.content === undefined) return undefined;
  const truncation = (parsed.data.details as { truncation?: { totalBytes?: unknown } } | null | undefined)?.truncation;
  const totalBytes =
    typeof truncation?.totalBytes === 'number' && Number.isFinite(truncation.totalBytes) ? truncation.totalBytes : undefined;
  return { text: messageTextOf(parsed.data.content), totalBytes };
}

/**
 * The output delta a snapshot adds, and the progress after it.
 *
 * 1. pi has truncated (it keeps only the last 2000 lines / 50 KB, so the head of the snapshot moves): its
 *    `totalBytes` says how many bytes are new, and they are the end of the snapshot (all of it if more
 *    arrived than pi keeps; what scrolled out in between is never seen, as in pi itself). Comparing texts
 *    would be wrong here: repetitive output can look unchanged after the head moved.
 * 2. Otherwise the snapshot is the whole output so far and extends the previous one: the new suffix.
 * 3. Neither applies (an extension's bash replacement that rewrites its output): the whole snapshot is the
 *    delta, so output is never lost, at the price of repeating some. `item/completed` carries the final text.
 */
export function nextOutput(previous: OutputProgress, snapshot: OutputSnapshot): OutputProgress & { delta: string } {
  const { text, totalBytes } = snapshot;
  if (totalBytes !== undefined) {
    const grown = totalBytes - previous.outputBytes;
    return { delta: grown > 0 ? lastBytes(text, grown) : '', output: text, outputBytes: Math.max(totalBytes, previous.outputBytes) };
  }
  const delta = text.startsWith(previous.output) ? text.slice(previous.output.length) : text;
  return { delta, output: text, outputBytes: previous.outputBytes + Buffer.byteLength(delta) };
}

/** pi counts UTF-8 bytes of the decoded output, so the new bytes are a whole-character suffix of the text. */
function lastBytes(text: string, count: number): string {
  const bytes = Buffer.from(text, 'utf8');
  return count >= bytes.length ? text : bytes.subarray(bytes.length - count).toString('utf8');
}
