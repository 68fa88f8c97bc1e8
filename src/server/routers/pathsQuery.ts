import { z } from 'zod';

const booleanParam = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Query of the environment and project paths routes (spec part 4); defaults are the host's. */
export const PathsQuerySchema = z.strictObject({
  query: z.string().optional(),
  limit: z.coerce.number().int().positive().optional(),
  includeFiles: booleanParam.optional(),
  includeDirectories: booleanParam.optional(),
});
export type PathsQuery = z.infer<typeof PathsQuerySchema>;
