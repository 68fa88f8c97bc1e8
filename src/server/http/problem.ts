import { z } from 'zod';

/**
 * An HTTP error as a value (RFC 9457 problem details). `code` is stable and documented; `title` and
 * `detail` are for people and may change. Anything else thrown in a handler becomes a 500 `internal_error`.
 */
export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    /** Extra members of the body, e.g. `issues` of a failed schema. */
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export const notFound = (what: string, id: string): Problem => new Problem(404, `${what}_not_found`, `no ${what} with id ${id}`);

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** What every error answer looks like; extra members (`issues`, `allow`, `threadId`, …) depend on the code. */
export const ProblemBodySchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  code: z.string(),
  detail: z.string(),
});

export function problemBody(problem: Problem): Record<string, unknown> {
  return {
    type: 'about:blank',
    title: TITLES[problem.status] ?? 'Error',
    status: problem.status,
    code: problem.code,
    detail: problem.detail,
    ...problem.extensions,
  };
}
