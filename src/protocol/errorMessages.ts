/** How an error reads to a person: one place, so the log, the rows and the API say it the same way. */
export function errorMessageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
    return (error as { message: string }).message;
  }
  try {
    return JSON.stringify(error) ?? 'unknown error';
  } catch {
    return String(error); // a cycle or a bigint: still something a person can read
  }
}

/** The first line only: agent errors are configuration problems a user must see (no key, unknown model); stacks stay out. */
export function firstLineOf(error: unknown): string {
  return errorMessageOf(error).split('\n')[0]!;
}
