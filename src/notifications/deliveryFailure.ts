/** Why one POST did not land; `retryable` is false for an answer that will not change by trying again. */
export class DeliveryFailure extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/**
 * A receiver's status → the failure it means, or undefined for success (2xx). A 4xx says the request itself is
 * refused (a wrong path, a rejected signature): not retried, except 408 and 429, which ask to come back later.
 * A 3xx is not followed (the configured URL should be the final one) and not retried either.
 */
export function failureOfStatus(status: number): DeliveryFailure | undefined {
  if (status >= 200 && status < 300) return undefined;
  const retryable = status >= 500 || status === 408 || status === 429;
  return new DeliveryFailure(`HTTP ${status}${retryable ? '' : ', not retried'}`, retryable);
}

/** A network error, a timeout, an abort: always worth another try. */
export function failureOfError(error: unknown): DeliveryFailure {
  if (error instanceof DeliveryFailure) return error;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return new DeliveryFailure(`${error instanceof Error ? error.message : String(error)}${cause}`, true);
}
