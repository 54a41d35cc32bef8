import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso/router';
import { useEffect, useState } from 'preact/hooks';
import { whenSignedOut } from './api';
import { SignIn } from './screens/sign-in/sign-in';
import { type BrowserSession, currentSession, signOut } from './session';
import { ErrorBoundary } from './ui/error-boundary';
import { Failure, Loading } from './ui/feedback';

/** A screen in the navigation: its address and the addresses under it (its details) are its own. */
export interface NavEntry {
  readonly path: string;
  readonly name: string;
}

/** The navigation's screens, and the console's own address with the screen it opens (`home`). */
export interface Navigation {
  readonly screens: readonly NavEntry[];
  readonly root: string;
  readonly home: NavEntry;
}

/**
 * The signed-in console around the routed screens: the session read once (the sign-in form until
 * there is one, whatever the address, so a deep link opens after signing in), the navigation, and
 * the error boundary around the main view. A session that ends shows the sign-in form over the
 * screen, which stays mounted underneath with what was typed.
 */
export function Console({ nav, children }: { nav: Navigation; children: ComponentChildren }) {
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
      <Shell session={session} nav={nav} onSignedOut={() => setSession(null)}>
        {children}
      </Shell>
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

/** The screen an address belongs to: its own or one under it; the console's root is home's. None: not found. */
const screenAt = (nav: Navigation, path: string): NavEntry | undefined =>
  path === nav.root ? nav.home : nav.screens.find((s) => path === s.path || path.startsWith(`${s.path}/`));

function Shell(props: { session: BrowserSession; nav: Navigation; onSignedOut: () => void; children: ComponentChildren }) {
  const { session, nav } = props;
  const { path } = useLocation();
  const screen = screenAt(nav, path);
  useEffect(() => {
    document.title = `${screen?.name ?? 'Not found'} · ${session.workspace.name}`;
  }, [screen, session]);
  return (
    <>
      <header class="top">
        <span class="workspace">{session.workspace.name}</span>
        <nav aria-label="Console">
          {nav.screens.map((s) => (
            <a key={s.path} href={s.path} aria-current={s === screen ? 'page' : undefined}>
              {s.name}
            </a>
          ))}
        </nav>
        <SignOut email={session.user.email} onSignedOut={props.onSignedOut} />
      </header>
      <main>
        <ErrorBoundary at={path}>{props.children}</ErrorBoundary>
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
