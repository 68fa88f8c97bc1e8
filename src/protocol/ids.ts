import { randomBytes } from 'node:crypto';

/** `apr`: an agent's question awaiting an answer (src/protocol/approvals.ts); `rc`: a review comment (issue 38). */
export type IdPrefix = 'proj' | 'host' | 'env' | 'thr' | 'apr' | 'rc';

/** `proj_3f9c…`: 80 random bits, enough that ids never collide in one registry. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}
