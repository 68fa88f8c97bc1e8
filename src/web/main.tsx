import { render } from 'preact';
import { signIn } from './api/session';
import { App } from './components/App';
import { registerServiceWorker } from './state/serviceWorker';
import { followTheme } from './state/theme';
import { followViewportHeight } from './state/viewportHeight';

followTheme();
followViewportHeight();
void signIn();
// The printed URL pasted into a tab already on the page changes only the fragment, which loads nothing:
// its token is taken here as it would be on a load.
addEventListener('hashchange', () => void (/[#&]token=/.test(location.hash) && signIn()));
render(<App />, document.getElementById('app')!);
registerServiceWorker();
