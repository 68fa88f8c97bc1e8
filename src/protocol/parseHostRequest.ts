import type { z } from 'zod';
import { HostCommandError } from './hostErrors';

/** Parses a host command request, turning schema issues into one readable `invalid_params` error. */
export function parseHostRequest<S extends z.ZodType>(schema: S, input: unknown, command: string): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'request';
    return `${where}: ${issue.message}`;
  });
  throw new HostCommandError('invalid_params', `${command}: ${problems.join('; ')}`, parsed.error.issues);
}
