import { z } from 'zod';

/**
 * A whole number in a query string or header: decimal digits only. `z.coerce.number()` took `0x10` as 16,
 * `1e2` as 100 and an empty or blank value as 0, so a typo read as a real cursor instead of a 400.
 */
export const decimalParam = z
  .string()
  .regex(/^[0-9]+$/, 'must be a whole number written in decimal digits')
  .transform(Number)
  .pipe(z.number().max(Number.MAX_SAFE_INTEGER, 'is too large'));
