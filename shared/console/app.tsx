import { useEffect, useState } from 'preact/hooks';
import { whenSignedOut } from './api';
import { Failure, Loading } from './components';
import { AcceptInvitation } from './screens/accept';
import { ApiKeys } from './screens/api-keys';
import { AuditLog } from './screens/audit-log';
import { Exports } from './screens/exports';
import { Members } from './screens/members';
import { ObjectTypes } from './screens/object-types';
import { Overview } from './screens/overview';
import { ProgramRules } from './screens/program';
import { SignIn } from './screens/sign-in';
import { Team } from './screens/team';
import { Wallet } from './screens/wallet';
import { Webhooks } from './screens/webhooks';
import { type BrowserSession, currentSession, signOut } from './session';

/** The console's screens, by address under /console. Each is a working flow against the API. */
const SCREENS = [
  { path: '/console/overview', name: 'Overview', Screen: Overview },
  { path: '/console/members', name: 'Members', Screen: Members },
  { path: '/console/program', name: 'Program', Screen: ProgramRules },
  { path: '/console/object-types', name: 'Object types', Screen: ObjectTypes },
  { path: '/console/webhooks', name: 'Webhooks', Screen: Webhooks },
  { path: '/console/exports', name: 'Exports', Screen: Exports },
  { path: '/console/api-keys', name: 'API keys', Screen: ApiKeys },
  { path: '/console/wallet', name: 'Wallet', Screen: Wallet },
  { path: '/console/audit', name: 'Audit log', Screen: AuditLog },
  { path: '/console/team', name: 'Team', Screen: Team },
] as const;

/** What /console itself (and an address no screen has) opens, until an overview exists. */
const HOME = SCREENS.find((s) => s.name === 'API keys')!;

function usePath(): [string, (to: string) => void] {
  const [path, setPath] = useState(location.pathname);
  useEffect(() => {
    const back = () => setPath(location.pathname);
    addEventListener('popstate', back);
    return () => removeEventListener('popstate', back);
  }, []);
  const go = (to: string) => {
    history.pushState(null, '', to);
    setPath(to);
  };
  return [path, go];
}

/** Where an invitation's link lands: open to whoever holds the link, signed in or not. */
const ACCEPT_PATH = '/console/accept';

export function App() {
  return location.pathname === ACCEPT_PATH ? <AcceptInvitation /> : <Console />;
}

function Console() {
  const [session, setSession] = useState<BrowserSession | null | undefined>(undefined);
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    whenSignedOut(() => setExpired(true));
    currentSession().then(
      (s) => setSession(s ?? null),
      () => setSession(null),
    );
  }, []);
  if (session === undefined) return <Loading what="the console" />;
  if (session === null) return <SignIn onSignedIn={setSession} />;
  if (session.user.role === 'member') return <NeedsAdmin session={session} onSignedOut={() => setSession(null)} />;
  return (
    <>
      <Shell session={session} onSignedOut={() => setSession(null)} />
      {expired ? (
        <div class="overlay">
          <SignIn
            expired
            onSignedIn={(s) => {
              setSession(s);
              setExpired(false);
            }}
          />
        </div>
      ) : null}
    </>
  );
}

function Shell({ session, onSignedOut }: { session: BrowserSession; onSignedOut: () => void }) {
  const [path, go] = usePath();
  const screen = SCREENS.find((s) => path === s.path || path.startsWith(`${s.path}/`)) ?? HOME;
  useEffect(() => {
    document.title = `${screen.name} · ${session.workspace.name}`;
  }, [screen, session]);
  return (
    <>
      <header class="top">
        <span class="workspace">{session.workspace.name}</span>
        <nav aria-label="Console">
          {SCREENS.map((s) => (
            <a
              key={s.path}
              href={s.path}
              aria-current={s === screen ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                go(s.path);
              }}
            >
              {s.name}
            </a>
          ))}
        </nav>
        <SignOut email={session.user.email} onSignedOut={onSignedOut} />
      </header>
      <main>
        <screen.Screen />
      </main>
    </>
  );
}

function SignOut({ email, onSignedOut }: { email: string; onSignedOut: () => void }) {
  const [error, setError] = useState<unknown>();
  return (
    <div class="account">
      <span>{email}</span>{' '}
      <button type="button" onClick={() => signOut().then(onSignedOut, setError)}>
        Sign out
      </button>
      {error ? <Failure error={error} /> : null}
    </div>
  );
}

/** A `member`-role user: a plain page, never a screen that fails on every call. */
function NeedsAdmin({ session, onSignedOut }: { session: BrowserSession; onSignedOut: () => void }) {
  return (
    <main class="plain">
      <h1>An admin is needed</h1>
      <p>
        You are signed in to {session.workspace.name} as {session.user.email}, a member. The console is for owners and admins of the workspace: ask one of them
        to make you an admin.
      </p>
      <SignOut email={session.user.email} onSignedOut={onSignedOut} />
    </main>
  );
}
