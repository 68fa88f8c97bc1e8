import { z } from 'zod';
import { PullRequestSchema, PullRequestStateSchema } from './pullRequest';

/**
 * Rows of shipping a thread's work (issue 39). The host writes the `git/…` ones (it did the work, and after a
 * kill its start-up recovery says what happened); the server writes the `pr/…` ones (it keeps the thread's
 * pull requests). Each is a frame `{method: <row type>, params: {threadId, …data}}` sent through
 * `thread.ingest`, so the pipeline numbers it like every other row; it changes no turn (like `thread/updated`).
 */
export const SHIP_ROW_TYPE = {
  committed: 'git/committed',
  pushed: 'git/pushed',
  /** A commit or push a daemon was killed in the middle of, and had not done: the recovery's word for "not at all". */
  interrupted: 'git/interrupted',
  prOpened: 'pr/opened',
  prState: 'pr/state',
} as const;
export type ShipRowType = (typeof SHIP_ROW_TYPE)[keyof typeof SHIP_ROW_TYPE];

/** The `data` of each row (and, with `threadId`, its frame's params). */
export const ShipRowDataSchemas = {
  [SHIP_ROW_TYPE.committed]: z.object({
    sha: z.string(),
    message: z.string(),
    files: z.array(z.string()),
    branch: z.string().nullable().optional(),
    /** True when the daemon's start-up recovery found the commit made by a run it did not see end. */
    recovered: z.boolean().optional(),
  }),
  [SHIP_ROW_TYPE.pushed]: z.object({
    remote: z.string(),
    branch: z.string(),
    sha: z.string(),
    recovered: z.boolean().optional(),
  }),
  [SHIP_ROW_TYPE.interrupted]: z.object({ action: z.enum(['commit', 'push']), message: z.string() }),
  [SHIP_ROW_TYPE.prOpened]: z.object({ pullRequest: PullRequestSchema }),
  [SHIP_ROW_TYPE.prState]: z.object({
    url: z.string(),
    number: z.number().int(),
    state: PullRequestStateSchema,
    previous: PullRequestStateSchema,
  }),
} satisfies Record<ShipRowType, z.ZodObject>;

export type ShipRowData<T extends ShipRowType> = z.infer<(typeof ShipRowDataSchemas)[T]>;
/** One ship row as the turn rules carry it. */
export type ShipRow = { [T in ShipRowType]: { type: T; data: ShipRowData<T> } }[ShipRowType];

const SHIP_ROW_TYPES: ReadonlySet<string> = new Set(Object.values(SHIP_ROW_TYPE));
export function isShipRowType(method: string): method is ShipRowType {
  return SHIP_ROW_TYPES.has(method);
}

/** The frame that writes a ship row into a thread's log. */
export function shipRowFrame<T extends ShipRowType>(threadId: string, type: T, data: ShipRowData<T>) {
  return { jsonrpc: '2.0' as const, method: type, params: { threadId, ...data } };
}

/** A ship frame's params: strict on `threadId`, the row's own fields checked by its schema. */
export function shipRowParamsSchema(type: ShipRowType) {
  return ShipRowDataSchemas[type].extend({ threadId: z.string().min(1) }).strict();
}
