import { render } from 'preact';
import { App } from './components/App';
import { registerServiceWorker } from './state/serviceWorker';

/** The page itself: every component, the Markdown and highlighting, loaded beside the sign-in (main.tsx). */
export function mount(): void {
  render(<App />, document.getElementById('app')!);
  registerServiceWorker();
}
