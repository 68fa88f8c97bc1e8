import { z } from 'zod';

/** An on/off setting: `1`/`true` or `0`/`false` from a flag or an env var, a boolean from code. */
export const BooleanSettingSchema = z.union([
  z.boolean(),
  z.enum(['0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true'),
]);

/**
 * `full-access` threads (every tool call allowed without asking) exist only where the host's owner turned
 * them on: a thread opened or switched to it on a host without this is refused `mode_not_allowed`.
 */
export const AllowFullAccessSchema = BooleanSettingSchema.default(false);
