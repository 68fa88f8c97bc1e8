import { signedIn } from './api/http';
import { signIn } from './api/session';
import { pollDirectory } from './state/directory';
import { followTheme } from './state/theme';
import { followViewportHeight } from './state/viewportHeight';

// The entry is small on purpose (issue 29: lists within 300 ms of sign-in): it trades the token and asks
// for the first lists while the page's components (mount.tsx, preloaded by index.html) download and
// compile, instead of after them. The lists are in the signals when the page first renders.
followTheme();
followViewportHeight();
void signIn().then(() => (signedIn.value ? pollDirectory() : undefined));
// The printed URL pasted into a tab already on the page changes only the fragment, which loads nothing:
// its token is taken here as it would be on a load.
addEventListener('hashchange', () => void (/[#&]token=/.test(location.hash) && signIn()));
void import('./mount').then(({ mount }) => mount());
