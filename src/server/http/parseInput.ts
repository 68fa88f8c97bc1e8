import type { z } from 'zod';
import { Problem } from './problem';

/** Validates a request's params, query or body (`addRoute` does, from its spec); 400 with zod's issues (path + message) otherwise. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where: 'params' | 'query' | 'body'): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message }));
  const summary = issues.map((issue) => `${issue.path.join('.') || where}: ${issue.message}`).join('; ');
  throw new Problem(400, `invalid_${where}`, `invalid ${where}: ${summary}`, { issues });
}
