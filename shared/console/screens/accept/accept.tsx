import { useState } from 'preact/hooks';
import { api, unwrap } from '../../api';
import { useSubmit } from '../../hooks/use-submit';
import { Failure } from '../../ui/feedback';
import { NewPasswordField } from '../../ui/fields';
import { takeFragmentToken } from '../../fragment-token';

/**
 * The page an invitation's link opens: `/console/accept#token=...`. The token is read from the
 * fragment (which no request carries) and taken out of the address bar at once, so it lands in no
 * history entry, log or Referer.
 */
export function AcceptInvitation() {
  const [token] = useState(takeFragmentToken);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [joined, setJoined] = useState<{ email: string; workspace: string }>();
  const { onSubmit, busy, error } = useSubmit(async () => {
    const body = { token, password, ...(name.trim() ? { name: name.trim() } : {}) };
    const answer = await unwrap(api.POST('/api/flash/team/invitations/accept', { body }));
    setJoined({ email: answer.data.user.email, workspace: answer.data.workspace.name });
  });
  if (joined) {
    return (
      <main class="plain">
        <h1>You joined {joined.workspace}</h1>
        <p>
          Your password is set. Sign in as {joined.email} with it: <a href="/console">sign in to the console</a>.
        </p>
      </main>
    );
  }
  return (
    <form class="sign-in" onSubmit={onSubmit} aria-labelledby="accept-title">
      <h1 id="accept-title">Accept your invitation</h1>
      {token ? null : <p role="alert">This link holds no invitation: open the link of the e-mail again.</p>}
      <label>
        Your name (optional)
        <input name="name" autoComplete="name" maxLength={120} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <NewPasswordField label="Choose a password" value={password} onInput={setPassword} />
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy || !token}>
        Join the team
      </button>
    </form>
  );
}
