import { z } from 'zod';
import { decimalParam } from '../http/decimalParam';

const booleanParam = z.enum(['true', 'false']).transform((value) => value === 'true');

/** Query of the environment and project paths routes (spec part 4); defaults are the host's. */
export const PathsQuerySchema = z.strictObject({
  query: z.string().optional(),
  limit: decimalParam.pipe(z.number().positive()).optional(),
  includeFiles: booleanParam.optional(),
  includeDirectories: booleanParam.optional(),
});
export type PathsQuery = z.infer<typeof PathsQuerySchema>;
