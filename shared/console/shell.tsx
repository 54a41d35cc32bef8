import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso/router';
import { useEffect, useState } from 'preact/hooks';
import { whenSignedOut } from './api';
import { SignIn } from './screens/sign-in/sign-in';
import { TwoFactor } from './screens/account/two-factor';
import { type BrowserSession, currentSession, signOut } from './session';
import type { Permission } from './permissions';
import { type ConsoleRoute, HeldPermissions, HeldRole, opens } from './permissions';
import { to } from './paths';
import { ErrorBoundary } from './ui/error-boundary';
import { Failure, Loading } from './ui/feedback';

/**
 * A screen in the navigation: its address and the addresses under it (its details) are its own.
 * `loads`: the route the screen reads first; a person whose permissions do not open it never sees
 * the screen.
 */
export interface NavEntry {
  readonly path: string;
  readonly name: string;
  readonly loads: ConsoleRoute;
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
  if (session.session.mfaEnrolmentRequired) {
    const enrolled = () => setSession({ ...session, session: { ...session.session, mfaEnrolmentRequired: false } });
    return <EnrolFirst session={session} onEnrolled={enrolled} onSignedOut={() => setSession(null)} />;
  }
  const mine = screensOf(nav, session.permissions);
  if (mine.screens.length === 0) return <NoScreens session={session} onSignedOut={() => setSession(null)} />;
  return (
    <HeldRole.Provider value={session.user.role}>
      <HeldPermissions.Provider value={session.permissions}>
        <Shell session={session} nav={mine} all={nav} onSignedOut={() => setSession(null)}>
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
      </HeldPermissions.Provider>
    </HeldRole.Provider>
  );
}

/** The navigation as one person sees it: the screens their permissions open; home is the first of them unless Overview is. */
function screensOf(nav: Navigation, held: readonly Permission[]): Navigation {
  const screens = nav.screens.filter((s) => opens(held, s.loads));
  return { root: nav.root, screens, home: screens.includes(nav.home) ? nav.home : (screens[0] ?? nav.home) };
}

/** The screen an address belongs to: its own or one under it; the console's root is home's. None: not found. */
const screenAt = (nav: Navigation, path: string): NavEntry | undefined =>
  path === nav.root ? nav.home : nav.screens.find((s) => path === s.path || path.startsWith(`${s.path}/`));

/**
 * The header with this person's navigation and the screen at the address. An address of a screen
 * their permissions do not open says so instead of loading it; the console's root opens their home.
 */
function Shell(props: { session: BrowserSession; nav: Navigation; all: Navigation; onSignedOut: () => void; children: ComponentChildren }) {
  const { session, nav } = props;
  const { path, route } = useLocation();
  const screen = screenAt(nav, path);
  const notMine = !screen && screenAt(props.all, path) !== undefined && path !== nav.root;
  const own = path === to.account;
  useEffect(() => {
    document.title = `${screen?.name ?? (own ? 'Your sessions' : notMine ? 'Not for your role' : 'Not found')} · ${session.workspace.name}`;
  }, [screen, notMine, own, session]);
  useEffect(() => {
    if (path === nav.root && nav.home !== props.all.home) route(nav.home.path, true);
  }, [path, nav, props.all, route]);
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
        <ErrorBoundary at={path}>{notMine ? <NotForYourRole role={session.user.role} /> : props.children}</ErrorBoundary>
      </main>
    </>
  );
}

function SignOut({ email, onSignedOut }: { email: string; onSignedOut: () => void }) {
  const [error, setError] = useState<unknown>();
  return (
    <div class="account">
      <a href={to.account}>{email}</a>{' '}
      <button type="button" onClick={() => signOut().then(onSignedOut, setError)}>
        Sign out
      </button>
      {error ? <Failure error={error} /> : null}
    </div>
  );
}

/** A screen the person's role does not open, reached by its address: said plainly, never loaded to fail. */
function NotForYourRole({ role }: { role: string }) {
  return (
    <section>
      <h1>Not for your role</h1>
      <p>Your role ({role}) does not open this screen. An owner or admin of the workspace can change your role.</p>
    </section>
  );
}

/** A user whose role opens no screen (the legacy `member`): a plain page, never a screen that fails on every call. */
/** A workspace that requires two-factor sign-in, and a person without it: enrolling is all the API lets them do until they have. */
function EnrolFirst({ session, onEnrolled, onSignedOut }: { session: BrowserSession; onEnrolled: () => void; onSignedOut: () => void }) {
  return (
    <main class="plain">
      <h1>Set up two-factor sign-in</h1>
      <p>
        {session.workspace.name} requires two-factor sign-in. Set it up for {session.user.email} to open the console.
      </p>
      <TwoFactor onEnrolled={onEnrolled} />
      <SignOut email={session.user.email} onSignedOut={onSignedOut} />
    </main>
  );
}

function NoScreens({ session, onSignedOut }: { session: BrowserSession; onSignedOut: () => void }) {
  return (
    <main class="plain">
      <h1>An admin is needed</h1>
      <p>
        You are signed in to {session.workspace.name} as {session.user.email}, with the role {session.user.role}, which opens no screen of the console. Ask an
        owner or admin of the workspace to give you a role for your job (marketer, support, analyst, developer or admin).
      </p>
      <SignOut email={session.user.email} onSignedOut={onSignedOut} />
    </main>
  );
}
