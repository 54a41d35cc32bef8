import { useState } from 'preact/hooks';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';
import { type BrowserSession, signIn } from '../../session';
import { ROOT } from '../../paths';

/** The sign-in form; also shown over a screen whose session ended, which stays as it was underneath. */
export function SignIn({ onSignedIn, expired }: { onSignedIn: (s: BrowserSession) => void; expired?: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { onSubmit: submit, busy, error } = useSubmit(async () => onSignedIn(await signIn(email, password)));
  return (
    <form class="sign-in" onSubmit={submit} aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">{expired ? 'Your session ended: sign in again' : 'Sign in to the console'}</h1>
      {expired ? <p>What you typed is kept; sign in and send it again.</p> : null}
      <label>
        Email
        <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <label>
        Password
        <input type="password" name="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Sign in
      </button>
      <a href={`${ROOT}/reset-password`}>Forgot your password?</a>
    </form>
  );
}
