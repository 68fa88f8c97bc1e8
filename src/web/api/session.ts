import { signal } from '@preact/signals';
import { answerOf, client, signedIn } from './http';

/**
 * True while a token is being traded for the cookie. The page then shows its frame with "Loading…" lists at
 * once, rather than "Signing in…": the first layout of that frame (fonts, icons) is done by the time the
 * lists answer, which then lay out alone (issue 29: lists within 300 ms of sign-in).
 */
export const tradingToken = signal(false);

/**
 * Signs the browser in: a `#token=…` fragment (the URL `npm start` prints; a fragment never reaches the
 * server's logs) is traded for the HttpOnly session cookie and taken out of the address bar at once, so it
 * is neither bookmarked nor shared by accident. Without a fragment, an existing cookie may still hold.
 */
export async function signIn(token = takeToken()): Promise<void> {
  if (token) {
    await signInWith(token);
    return;
  }
  signedIn.value = await answerOf(client.GET('/api/v1/session')).then(
    () => true,
    () => false,
  );
}

/** The `#token=…` of the address, taken out of the address bar at once; null without one. */
export function takeToken(): string | null {
  const token = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  if (token) history.replaceState(null, '', location.pathname + location.search);
  return token;
}

export async function signInWith(token: string): Promise<void> {
  tradingToken.value = true;
  try {
    signedIn.value = await answerOf(client.POST('/api/v1/session', { body: { token } })).then(
      () => true,
      () => false,
    );
  } finally {
    tradingToken.value = false;
  }
}
