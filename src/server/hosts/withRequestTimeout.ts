import { HostRequestError } from '../../protocol/hostErrors';

/**
 * A host request that gets no answer in time rejects as a `timeout` failure, so the HTTP caller can answer 504;
 * any other rejection passes through for the caller to name (a direct link and a forwarding replica word it
 * differently).
 */
export function withRequestTimeout<T>(promise: Promise<T>, timeoutMs: number, method: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new HostRequestError({ kind: 'timeout', timeoutMs }, `${method} got no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
