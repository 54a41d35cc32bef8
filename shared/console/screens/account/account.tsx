import { useState } from 'preact/hooks';
import type { components } from '../../../client/schema';
import { api, unwrap } from '../../api';
import { useLoad } from '../../hooks/use-load';
import { useSubmit } from '../../hooks/use-submit';
import { Failure, Loading, when } from '../../ui/feedback';
import { TableHead } from '../../ui/tables';
import { TwoFactor } from './two-factor';

type Session = components['schemas']['Session'];

/** `/console/account`: where the signed-in person is signed in, each other session endable (a lost laptop, a forgotten script). */
export function Account() {
  const [round, setRound] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const sessions = useLoad(() => unwrap(api.GET('/api/flash/sessions')), [round]);
  const ended = (what: string) => {
    setNotice(what);
    setRound((r) => r + 1);
  };
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Your sessions</h1>
      <p>Where you are signed in: console sign-ins and API tokens from signing in. End any you do not recognise.</p>
      {notice ? <p role="status">{notice}</p> : null}
      {sessions.state === 'loading' ? <Loading what="your sessions" /> : null}
      {sessions.state === 'failed' ? <Failure error={sessions.error} /> : null}
      {sessions.state === 'ready' ? (
        <table>
          <caption>Newest first</caption>
          <TableHead columns={['Kind', 'Signed in', 'Last used', 'Ends']} actions />
          <tbody>
            {sessions.data.data.map((s) => (
              <tr key={s.id}>
                <td>{s.kind === 'console' ? 'Console' : 'API token'}</td>
                <td>{when(s.createdAt)}</td>
                <td>{s.lastSeenAt ? when(s.lastSeenAt) : '—'}</td>
                <td>{when(s.expiresAt)}</td>
                <td>{s.current ? <span>This session</span> : <End session={s} onEnded={ended} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <TwoFactor />
    </section>
  );
}

function End({ session, onEnded }: { session: Session; onEnded: (what: string) => void }) {
  const { onSubmit, busy, error } = useSubmit(async () => {
    await unwrap(api.DELETE('/api/flash/sessions/{id}', { params: { path: { id: session.id } } }));
    onEnded(`Ended the session signed in ${when(session.createdAt)}.`);
  });
  return (
    <>
      <button type="button" disabled={busy} aria-label={`End the session signed in ${when(session.createdAt)}`} onClick={onSubmit}>
        End
      </button>
      {error ? <Failure error={error} /> : null}
    </>
  );
}
