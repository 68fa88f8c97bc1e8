import { render } from 'preact';
import { signIn } from './api/session';
import { App } from './components/App';
import { followTheme } from './state/theme';

followTheme();
void signIn();
render(<App />, document.getElementById('app')!);
