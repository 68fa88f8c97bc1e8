import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full collection now, between two parts of a benchmark that share this process: what one part left
 * behind (a closed server's 135k-entry tree) would otherwise be marked while the next part is timed.
 */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
