import { useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from '../../api/http';

/**
 * How a combobox gets the answer to a query: at once (`{ now }`, e.g. nothing for a blank query the server needs
 * not see), from the server `delayMs` after the last keystroke (`{ later }`), or not at all (`null`: closed).
 */
export type Ask<Answer> = { now: Answer } | { later: () => Promise<Answer> } | null;

export interface LatestAnswer<Answer> {
  answer: Answer;
  /** The query `answer` is for; `null` before the first. Enter acts only once it equals the typed query. */
  answered: string | null;
  /** Counts the answers kept, so a list can move its highlight back to the top on each new one. */
  version: number;
  error: string | null;
  setAnswer: (update: (answer: Answer) => Answer) => void;
  setError: (message: string | null) => void;
  /** Forgets the answer, e.g. when the dialog opens again for another project. */
  clear: () => void;
}

/**
 * Keeps the answer to the newest query only: an answer to an earlier query that arrives late is dropped, so
 * typing fast never flashes stale rows. `keys` are the other inputs that make a new question (a filter, the
 * dialog being opened).
 */
export function useLatestAnswer<Answer>(
  query: string,
  ask: (query: string) => Ask<Answer>,
  empty: Answer,
  delayMs: number,
  keys: unknown[],
): LatestAnswer<Answer> {
  const [answer, setAnswer] = useState<Answer>(empty);
  const [answered, setAnswered] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(0);

  useEffect(() => {
    const how = ask(query);
    if (!how) return;
    const ticket = ++asked.current;
    const keep = (next: Answer) => {
      setAnswer(next);
      setAnswered(query);
      setVersion((count) => count + 1);
      setError(null);
    };
    if ('now' in how) {
      keep(how.now);
      return;
    }
    const timer = setTimeout(async () => {
      try {
        const next = await how.later();
        if (ticket === asked.current) keep(next); // else a later keystroke's answer wins
      } catch (failure) {
        if (ticket === asked.current) setError(messageOf(failure));
      }
    }, delayMs);
    return () => clearTimeout(timer);
  }, [query, ...keys]);

  const clear = () => {
    setAnswer(empty);
    setAnswered(null);
  };
  return { answer, answered, version, error, setAnswer, setError, clear };
}
