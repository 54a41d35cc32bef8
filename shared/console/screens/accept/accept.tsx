import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { useSubmit } from '../../hooks/use-submit';
import { Failure, Loading } from '../../ui/feedback';
import { NewPasswordField } from '../../ui/fields';
import { takeFragmentToken } from '../../fragment-token';

/**
 * The page an invitation's link opens: `/console/accept#token=...`. The token is read from the
 * fragment (which no request carries) and taken out of the address bar at once, so it lands in no
 * history entry, log or Referer. The page first says what the link opens to (workspace, inviter,
 * role), and a link no longer valid says so before anyone types a password.
 */
export function AcceptInvitation() {
  const [token] = useState(takeFragmentToken);
  const preview = useLoad(async () => (token ? unwrap(api.POST('/api/flash/team/invitations/preview', { body: { token } })) : null), [token]);
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
      {preview.state === 'loading' ? <Loading what="the invitation" /> : null}
      {preview.state === 'failed' ? <Failure error={preview.error} /> : null}
      {preview.state === 'ready' && preview.data ? <Invited preview={preview.data.data} /> : null}
      <label>
        Your name (optional)
        <input name="name" autoComplete="name" maxLength={120} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <NewPasswordField label="Choose a password" value={password} onInput={setPassword} />
      {error ? <Failure error={error} /> : null}
      <button type="submit" disabled={busy || !token || preview.state === 'failed'}>
        Join the team
      </button>
    </form>
  );
}

type Preview = components['schemas']['InvitationPreview'];

/** Whom the person joins, at whose invitation, with which job, and under which login. */
function Invited({ preview }: { preview: Preview }) {
  const by = preview.invitedBy
    ? preview.invitedBy.name
      ? `${preview.invitedBy.name} (${preview.invitedBy.email})`
      : preview.invitedBy.email
    : 'A team member';
  return (
    <p data-testid="invitation">
      {by} invited you to join <strong>{preview.workspace.name}</strong> as <strong>{preview.role}</strong>: {preview.roleSummary}. You will sign in as{' '}
      {preview.email}.
    </p>
  );
}
