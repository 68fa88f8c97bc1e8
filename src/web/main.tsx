import { render } from 'preact';
import { signIn } from './api/session';
import { App } from './components/App';
import 'highlight.js/styles/github.css';

void signIn();
render(<App />, document.getElementById('app')!);
