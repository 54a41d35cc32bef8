import { LocationProvider, Route, Router, useLocation } from 'preact-iso/router';
import { ROOT, to } from './paths';
import { type Navigation, Console } from './shell';
import { ErrorBoundary, lazyScreen } from './ui/error-boundary';

/**
 * The console's addresses, all under /console (the server answers each with the page; the browser
 * routes). Every screen is its own chunk, loaded on first use; a detail (a member, a campaign, an
 * object type's records, an endpoint's deliveries) has an address of its own, so it can be linked,
 * reloaded, and closed with the browser's Back.
 */

const Overview = lazyScreen(() => import('./screens/overview/overview').then((m) => m.Overview));
const Members = lazyScreen(() => import('./screens/members/members').then((m) => m.Members));
const MemberDetail = lazyScreen(() => import('./screens/members/member-detail').then((m) => m.MemberDetail));
const Program = lazyScreen(() => import('./screens/program/program').then((m) => m.ProgramRules));
const Rewards = lazyScreen(() => import('./screens/rewards/rewards').then((m) => m.Rewards));
const ObjectTypes = lazyScreen(() => import('./screens/object-types/object-types').then((m) => m.ObjectTypes));
const Webhooks = lazyScreen(() => import('./screens/webhooks/webhooks').then((m) => m.Webhooks));
const Exports = lazyScreen(() => import('./screens/exports/exports').then((m) => m.Exports));
const Imports = lazyScreen(() => import('./screens/imports/imports').then((m) => m.Imports));
const ImportJob = lazyScreen(() => import('./screens/imports/import-job').then((m) => m.ImportJob));
const ApiKeys = lazyScreen(() => import('./screens/api-keys/api-keys').then((m) => m.ApiKeys));
const Wallet = lazyScreen(() => import('./screens/wallet/wallet').then((m) => m.Wallet));
const AuditLog = lazyScreen(() => import('./screens/audit-log/audit-log').then((m) => m.AuditLog));
const Team = lazyScreen(() => import('./screens/team/team').then((m) => m.Team));
const Account = lazyScreen(() => import('./screens/account/account').then((m) => m.Account));
const NotFound = lazyScreen(() => import('./screens/not-found/not-found').then((m) => m.NotFound));
const AcceptInvitation = lazyScreen(() => import('./screens/accept/accept').then((m) => m.AcceptInvitation));
const ResetPassword = lazyScreen(() => import('./screens/reset-password/reset-password').then((m) => m.ResetPassword));

const OVERVIEW = { path: `${ROOT}/overview`, name: 'Overview', loads: 'GET /api/flash/overview' } as const;

/** The navigation, in its order, each screen with the route it reads first; the console opens on Overview. */
const NAV: Navigation = {
  root: ROOT,
  home: OVERVIEW,
  screens: [
    OVERVIEW,
    { path: to.members, name: 'Members', loads: 'GET /api/flash/members' },
    { path: to.program, name: 'Program', loads: 'GET /api/flash/program' },
    { path: to.rewards, name: 'Rewards', loads: 'GET /api/flash/rewards' },
    { path: to.objectTypes, name: 'Object types', loads: 'GET /api/flash/objects/types' },
    { path: to.webhooks, name: 'Webhooks', loads: 'GET /api/flash/webhooks' },
    { path: `${ROOT}/exports`, name: 'Exports', loads: 'GET /api/flash/exports' },
    { path: to.imports, name: 'Imports', loads: 'GET /api/flash/imports' },
    { path: `${ROOT}/api-keys`, name: 'API keys', loads: 'GET /api/v2/api-keys' },
    { path: `${ROOT}/wallet`, name: 'Wallet', loads: 'GET /api/flash/wallet/branding' },
    { path: `${ROOT}/audit`, name: 'Audit log', loads: 'GET /api/flash/audit' },
    { path: `${ROOT}/team`, name: 'Team', loads: 'GET /api/flash/team/members' },
  ],
};

/** Where an invitation's or a reset e-mail's link lands (open to whoever holds the link, signed in or not); anything else is the signed-in console. */
export function App() {
  return (
    <LocationProvider scope={ROOT}>
      <Pages />
    </LocationProvider>
  );
}

function Pages() {
  return (
    <ErrorBoundary at={useLocation().path}>
      <Router>
        <Route path={`${ROOT}/accept`} component={AcceptInvitation} />
        <Route path={`${ROOT}/reset-password`} component={ResetPassword} />
        <Route path={ROOT} component={SignedIn} />
        <Route path={`${ROOT}/*`} component={SignedIn} />
      </Router>
    </ErrorBoundary>
  );
}

/** The screens, by their address under ROOT (what the route above leaves of the path). */
function SignedIn() {
  return (
    <Console nav={NAV}>
      <Router>
        <Route path="/" component={Overview} />
        <Route path="/overview" component={Overview} />
        <Route path="/members" component={Members} />
        <Route path="/members/:id" component={MemberDetail} />
        <Route path="/program" component={Program} />
        <Route path="/program/campaigns/:id" component={Program} />
        <Route path="/rewards" component={Rewards} />
        <Route path="/rewards/:id" component={Rewards} />
        <Route path="/object-types" component={ObjectTypes} />
        <Route path="/object-types/:key" component={ObjectTypes} />
        <Route path="/webhooks" component={Webhooks} />
        <Route path="/webhooks/:id/deliveries" component={Webhooks} />
        <Route path="/exports" component={Exports} />
        <Route path="/imports" component={Imports} />
        <Route path="/imports/:id" component={ImportJob} />
        <Route path="/api-keys" component={ApiKeys} />
        <Route path="/wallet" component={Wallet} />
        <Route path="/audit" component={AuditLog} />
        <Route path="/team" component={Team} />
        <Route path="/account" component={Account} />
        <Route default component={NotFound} />
      </Router>
    </Console>
  );
}
