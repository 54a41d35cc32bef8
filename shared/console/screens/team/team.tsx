import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { usePaged } from '../../hooks/use-paged';
import { useSubmit } from '../../hooks/use-submit';
import { useLoad } from '../../hooks/use-load';
import { Confirmed } from '../../ui/confirmed';
import { Failure, when } from '../../ui/feedback';
import { Listing, TableHead } from '../../ui/tables';
import { PLATFORM } from '../../platform';
import { useRole } from '../../permissions';

type User = components['schemas']['User'];
type Invitation = components['schemas']['Invitation'];
type Role = User['role'];
const ROLES = PLATFORM.roles;

/** What each role is for, as the invitation form offers it. */
const ROLE_LABELS: Readonly<Record<Role, string>> = {
  owner: 'Owner: also manages owners',
  admin: 'Admin: manages the workspace',
  marketer: 'Marketer: campaigns, rewards, reports',
  support: 'Support: members, their points within a ceiling',
  analyst: 'Analyst: reports, exports, the audit log',
  developer: 'Developer: API keys, webhooks, object types',
  member: 'Member: signs in, no console',
};

/** The team: who signs in to the workspace, with which role, and who is invited. */
export function Team() {
  const [round, setRound] = useState(0);
  const changed = () => setRound((r) => r + 1);
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">Team</h1>
      <RequireTwoFactor />
      <InviteForm onInvited={changed} />
      <Members round={round} onChanged={changed} />
      <Invitations round={round} onChanged={changed} />
    </section>
  );
}

/** The workspace's requirement of two-factor sign-in: a switch that saves as it is turned. */
function RequireTwoFactor() {
  const security = useLoad(() => unwrap(api.GET('/api/flash/team/security')), []);
  const [required, setRequired] = useState<boolean | null>(null);
  const shown = required ?? (security.state === 'ready' ? security.data.data.mfaRequired : false);
  const { onSubmit, busy, error } = useSubmit(async () => {
    const saved = await unwrap(api.PUT('/api/flash/team/security', { body: { mfaRequired: !shown } }));
    setRequired(saved.data.mfaRequired);
  });
  return (
    <div class="card">
      <h2 id="security-title">Security</h2>
      {security.state === 'failed' ? <Failure error={security.error} /> : null}
      <label>
        <input
          type="checkbox"
          role="switch"
          aria-checked={shown}
          aria-describedby="security-help"
          name="mfaRequired"
          checked={shown}
          disabled={busy || security.state !== 'ready'}
          onChange={() => onSubmit()}
        />
        Require two-factor sign-in
      </label>
      <p id="security-help">Whoever signs in without it from now on may only set it up before anything else.</p>
      {error ? <Failure error={error} /> : null}
    </div>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>(PLATFORM.invitedRole);
  const [sent, setSent] = useState<string>();
  const { onSubmit, busy, error } = useSubmit(async () => {
    const made = await unwrap(api.POST('/api/flash/team/invitations', { body: { email, role } }));
    setSent(made.data.email);
    setEmail('');
    onInvited();
  });
  return (
    <form onSubmit={onSubmit} class="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <label>
        Email
        <input type="email" name="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <label>
        Role
        <select name="role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </label>
      {error ? <Failure error={error} /> : null}
      {sent ? <p role="status">Invitation sent to {sent}: the link works once.</p> : null}
      <button type="submit" disabled={busy}>
        Send invitation
      </button>
    </form>
  );
}

function Members({ round, onChanged }: { round: number; onChanged: () => void }) {
  // Ending another person's sessions is an owner's (the API says so to anyone else).
  const owner = useRole() === 'owner';
  const list = usePaged((page) => unwrap(api.GET('/api/flash/team/members', { params: { query: { limit: 50, ...page } } })), [round]);
  return (
    <Listing list={list} what="the team">
      {(users) => (
        <table>
          <caption>Members</caption>
          <TableHead columns={['Email', 'Name', 'Role', 'Joined']} actions />
          <tbody>
            {users.map((u) => (
              <tr key={u.id}>
                <td>{u.email}</td>
                <td>{u.name ?? '—'}</td>
                <td>
                  <RoleForm user={u} onChanged={onChanged} />
                </td>
                <td>{when(u.createdAt)}</td>
                <td>
                  {owner ? <EndSessions user={u} /> : null} <Remove user={u} onRemoved={onChanged} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Listing>
  );
}

/** A role changes on "Save role", not on every keystroke in the list. */
function RoleForm({ user, onChanged }: { user: User; onChanged: () => void }) {
  const [role, setRole] = useState<Role>(user.role);
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.PATCH('/api/flash/team/members/{id}', { params: { path: { id: user.id } }, body: { role } }));
    onChanged();
  });
  return (
    <form onSubmit={onSubmit} class="inline">
      <select aria-label={`Role of ${user.email}`} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>{' '}
      <button type="submit" disabled={busy || role === user.role} aria-label={`Save role of ${user.email}`}>
        Save role
      </button>
      {error ? <Failure error={error} /> : null}
    </form>
  );
}

/** Every session of the person ends at once (a lost phone): asked first; their login stays. */
function EndSessions({ user }: { user: User }) {
  const [done, setDone] = useState(false);
  if (done) return <span role="status">Signed out everywhere.</span>;
  return (
    <Confirmed
      open={{ text: 'End sessions', label: `End sessions of ${user.email}` }}
      legend={`Confirm ending every session of ${user.email}`}
      confirm="End every session"
      run={async () => {
        await unwrap(api.DELETE('/api/flash/team/members/{id}/sessions', { params: { path: { id: user.id } } }));
        setDone(true);
      }}
    >
      They are signed out on every device and token at once; they can sign in again with their password.
    </Confirmed>
  );
}

/** Removing asks first: their sessions end at once. */
function Remove({ user, onRemoved }: { user: User; onRemoved: () => void }) {
  return (
    <Confirmed
      open={{ text: 'Remove', label: `Remove ${user.email}` }}
      legend={`Confirm removing ${user.email}`}
      confirm="Remove member"
      run={async () => {
        await unwrap(api.DELETE('/api/flash/team/members/{id}', { params: { path: { id: user.id } } }));
        onRemoved();
      }}
    >
      They are signed out at once and can no longer sign in.
    </Confirmed>
  );
}

function Invitations({ round, onChanged }: { round: number; onChanged: () => void }) {
  const list = usePaged((page) => unwrap(api.GET('/api/flash/team/invitations', { params: { query: { limit: 50, ...page } } })), [round]);
  return (
    <Listing list={list} what="invitations" empty="No invitations yet.">
      {(invitations) => (
        <table>
          <caption>Invitations</caption>
          <TableHead columns={['Email', 'Role', 'Status', 'Expires']} actions />
          <tbody>
            {invitations.map((i) => (
              <tr key={i.id}>
                <td>{i.email}</td>
                <td>{i.role}</td>
                <td>{i.status}</td>
                <td>{when(i.expiresAt)}</td>
                <td>{i.status === 'pending' ? <RevokeInvitation invitation={i} onRevoked={onChanged} /> : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Listing>
  );
}

/** Revoking asks first, as every destructive act of the console does: the mailed link stops working. */
function RevokeInvitation({ invitation, onRevoked }: { invitation: Invitation; onRevoked: () => void }) {
  return (
    <Confirmed
      open={{ text: 'Revoke', label: `Revoke the invitation of ${invitation.email}` }}
      legend={`Confirm revoking the invitation of ${invitation.email}`}
      confirm="Revoke invitation"
      run={async () => {
        await unwrap(api.DELETE('/api/flash/team/invitations/{id}', { params: { path: { id: invitation.id } } }));
        onRevoked();
      }}
    >
      The link in the invitation mail stops working; invite again to send a new one.
    </Confirmed>
  );
}
