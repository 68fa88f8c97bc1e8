import { randomBytes } from 'node:crypto';

export type IdPrefix = 'proj' | 'host' | 'env' | 'thr';

/** `proj_3f9c…`: 80 random bits, enough that ids never collide in one registry. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}
