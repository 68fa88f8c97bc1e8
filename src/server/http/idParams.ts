import { z } from 'zod';

/**
 * The params of every `/<resource>/:id…` route. Any id is taken as written: one no record has is a 404
 * `<resource>_not_found` from the lookup, as before, not a 400.
 */
export const IdParamsSchema = z.strictObject({ id: z.string().min(1) });
export type IdParams = z.infer<typeof IdParamsSchema>;
