import { useState } from 'preact/hooks';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';
import { OneTimeCodeField } from '../../ui/fields';
import { type BrowserSession, type MfaChallenge, signIn, signInWithCode } from '../../session';
import { ROOT } from '../../paths';

/** The sign-in form; also shown over a screen whose session ended, which stays as it was underneath. */
export function SignIn({ onSignedIn, expired }: { onSignedIn: (s: BrowserSession) => void; expired?: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<MfaChallenge | null>(null);
  const {
    onSubmit: submit,
    busy,
    error,
  } = useSubmit(async () => {
    const answer = await signIn(email, password);
    if ('mfa' in answer) setChallenge(answer);
    else onSignedIn(answer);
  });
  if (challenge) return <SecondStep challenge={challenge.mfa.challenge} onSignedIn={onSignedIn} onRestart={() => setChallenge(null)} />;
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

/** After the right password, for a user with two-factor sign-in: the app's code, or one recovery code. */
function SecondStep({ challenge, onSignedIn, onRestart }: { challenge: string; onSignedIn: (s: BrowserSession) => void; onRestart: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const { onSubmit, busy, error } = useSubmit(async () => onSignedIn(await signInWithCode(challenge, recovery ? { recoveryCode: value } : { code: value })));
  const switchTo = (toRecovery: boolean) => {
    setRecovery(toRecovery);
    setValue('');
  };
  return (
    <form class="sign-in" onSubmit={onSubmit} aria-labelledby="second-step-title">
      <h1 id="second-step-title">Two-factor sign-in</h1>
      <p>{recovery ? 'Type one of your recovery codes; each works once.' : 'Type the 6-digit code your authenticator app shows now.'}</p>
      {recovery ? (
        <label>
          Recovery code
          <input
            name="recovery-code"
            autoComplete="off"
            autoCapitalize="none"
            spellcheck={false}
            required
            value={value}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </label>
      ) : (
        <OneTimeCodeField label="Code" value={value} onValue={setValue} />
      )}
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Verify
      </button>
      <button type="button" onClick={() => switchTo(!recovery)}>
        {recovery ? 'Use the code of your app' : 'Use a recovery code'}
      </button>
      <button type="button" onClick={onRestart}>
        Start over
      </button>
    </form>
  );
}
