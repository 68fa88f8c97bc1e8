import { useState } from 'preact/hooks';
import { signInWith } from '../api/session';

/** Shown when the browser holds no session: the token from `<dataDir>/token`, or the URL `npm start` printed. */
export function SignIn() {
  const [token, setToken] = useState('');
  const [tried, setTried] = useState(false);
  return (
    <main class="sign-in">
      <h1>Agent threads</h1>
      <p>
        Open the URL <code>npm start</code> printed (it ends with <code>#token=…</code>), or paste the token from the file it names (
        <code>token in …</code>).
      </p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          await signInWith(token.trim());
          setTried(true);
        }}
      >
        <label for="token">Token</label>
        <input id="token" type="password" autocomplete="off" value={token} onInput={(event) => setToken(event.currentTarget.value)} />
        <button type="submit">Sign in</button>
        {tried && <p role="alert">That token was not accepted.</p>}
      </form>
    </main>
  );
}
