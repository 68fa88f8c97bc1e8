/** Why a host file command refused a request. */
export type HostCommandErrorCode =
  | 'invalid_params'
  | 'not_found'
  | 'not_a_file'
  | 'not_a_directory'
  | 'too_large'
  | 'forbidden';

/** Suggested HTTP status per code, for the server's problem+json mapping. */
export const HOST_COMMAND_ERROR_HTTP_STATUS: Record<HostCommandErrorCode, number> = {
  invalid_params: 400,
  not_found: 404,
  not_a_file: 409,
  not_a_directory: 409,
  too_large: 413,
  forbidden: 403,
};

/** Thrown by every host file command; `code` is stable, `message` is for people. */
export class HostCommandError extends Error {
  constructor(
    readonly code: HostCommandErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'HostCommandError';
  }
}
