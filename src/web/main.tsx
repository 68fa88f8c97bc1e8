import { effect } from '@preact/signals';
import { render } from 'preact';
import { signedIn } from './api/http';
import { signIn, takeToken } from './api/session';
import { App, preloadPages } from './components/App';
import { directoryLoaded, pollDirectory } from './state/directory';
import { registerServiceWorker } from './state/serviceWorker';
import { followTheme } from './state/theme';
import { followViewportHeight } from './state/viewportHeight';

// The entry holds the first screen and nothing more (issue 29: lists within 300 ms of sign-in): it trades
// the token and asks for the lists at once, all four requests together, and renders the page's frame and
// lists itself; the thread view (Markdown, highlighting) and the forms load after that first screen has
// painted (`preloadPages`). The lists go with the token itself as a bearer token (or the cookie when there
// is none): waiting for the trade's answer first cost a round trip. An answer of 401 shows the sign-in form,
// as the trade's would.
followTheme();
followViewportHeight();
const token = takeToken();
void pollDirectory(token ?? undefined);
void signIn(token);
// The printed URL pasted into a tab already on the page changes only the fragment, which loads nothing:
// its token is taken here as it would be on a load.
addEventListener('hashchange', () => void (/[#&]token=/.test(location.hash) && signIn()));
// index.html's "Loading…" goes first: Preact would otherwise reuse that paragraph somewhere inside the frame.
const root = document.getElementById('app')!;
root.replaceChildren();
render(<App />, root);
afterFirstScreen(() => {
  void preloadPages();
  registerServiceWorker();
});

/**
 * Runs `then` once the first screen (the lists, or the sign-in form) has painted: the service worker's
 * install fetches the whole shell, and the other pages' code compiles, neither in that screen's way. Lists
 * that never answer (the server gone) hold it back 5 s at most.
 */
function afterFirstScreen(then: () => void): void {
  let done = false;
  const once = () => void (done || ((done = true), then()));
  const stop = effect(() => {
    if (!directoryLoaded.value && signedIn.value !== false) return;
    queueMicrotask(() => stop());
    // After the frame, and when the main thread is idle: nothing the reader sees waits behind it.
    requestAnimationFrame(() => setTimeout(() => requestIdleCallback(once, { timeout: 1000 })));
  });
  setTimeout(once, 5000);
}
