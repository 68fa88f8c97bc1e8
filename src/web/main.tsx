import { signIn, takeToken } from './api/session';
import { pollDirectory } from './state/directory';
import { followTheme } from './state/theme';
import { followViewportHeight } from './state/viewportHeight';

// The entry is small on purpose (issue 29: lists within 300 ms of sign-in): it trades the token and asks
// for the first lists at once, all four requests together, while the page's components (mount.tsx,
// preloaded by index.html) download and compile. The lists go with the token itself as a bearer token (or
// the cookie when there is none): waiting for the trade's answer first cost a round trip and, on a busy
// machine, the time the main thread spent compiling. The lists are in the signals when the page renders;
// an answer of 401 shows the sign-in form, as the trade's would.
followTheme();
followViewportHeight();
const token = takeToken();
void pollDirectory(token ?? undefined);
void signIn(token);
// The printed URL pasted into a tab already on the page changes only the fragment, which loads nothing:
// its token is taken here as it would be on a load.
addEventListener('hashchange', () => void (/[#&]token=/.test(location.hash) && signIn()));
void import('./mount').then(({ mount }) => mount());
