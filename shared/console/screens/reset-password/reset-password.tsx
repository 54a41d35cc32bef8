import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';
import { NewPasswordField } from '../../ui/fields';
import { takeFragmentToken } from '../../fragment-token';
import { ROOT } from '../../paths';

/**
 * The page a reset e-mail's link opens: `/console/reset-password#token=...`, with the token in the
 * fragment (which no request carries), taken out of the address bar at once so it lands in no history
 * entry, log or Referer. Without a token it asks for the e-mail to send a link to.
 */
export function ResetPassword() {
  const [token] = useState(takeFragmentToken);
  return token ? <NewPassword token={token} /> : <SendLink />;
}

/** Asks for the e-mail; the answer is the same whether an account has it or not (nothing to probe). */
function SendLink() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.POST('/api/v2/auth/forgot-password', { body: { email } }));
    setSent(true);
  });
  if (sent) {
    return (
      <main class="plain">
        <h1>Check your e-mail</h1>
        <p role="status">
          If {email} has an account, a link to choose a new password is on its way. It works once, for an hour. <a href={ROOT}>Back to sign in</a>
        </p>
      </main>
    );
  }
  return (
    <form class="sign-in" onSubmit={onSubmit} aria-labelledby="forgot-title">
      <h1 id="forgot-title">Forgot your password?</h1>
      <p>Enter the e-mail you sign in with: we send a link to choose a new password.</p>
      <label>
        Email
        <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Send the link
      </button>
      <a href={ROOT}>Back to sign in</a>
    </form>
  );
}

function NewPassword({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.POST('/api/v2/auth/reset-password', { body: { token, newPassword: password } }));
    setDone(true);
  });
  if (done) {
    return (
      <main class="plain">
        <h1>Your password is set</h1>
        <p role="status">
          Every session of your account was signed out. <a href={ROOT}>Sign in with the new password</a>
        </p>
      </main>
    );
  }
  return (
    <form class="sign-in" onSubmit={onSubmit} aria-labelledby="reset-title">
      <h1 id="reset-title">Choose a new password</h1>
      <NewPasswordField label="New password" value={password} onInput={setPassword} />
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy}>
        Set the password
      </button>
    </form>
  );
}
