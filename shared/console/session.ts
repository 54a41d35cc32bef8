import type { components } from '../client/schema';
import { api, unwrap, useCsrfToken } from './api';

export type BrowserSession = components['schemas']['BrowserSession'];
/** What the password answers for a user with two-factor sign-in: no session yet, a challenge to answer with a code. */
export type MfaChallenge = components['schemas']['MfaChallenge'];

/** The session of this browser, if its cookie still holds one (after a reload). */
export async function currentSession(): Promise<BrowserSession | undefined> {
  const { data, response } = await api.GET('/api/flash/session');
  if (!response.ok || !data) return undefined;
  useCsrfToken(data.data.session.csrfToken);
  return data.data;
}

const started = (s: BrowserSession): BrowserSession => {
  useCsrfToken(s.session.csrfToken);
  return s;
};

export async function signIn(email: string, password: string): Promise<BrowserSession | MfaChallenge> {
  const answer = (await unwrap(api.POST('/api/flash/session', { body: { email, password } }))).data;
  return 'mfa' in answer ? answer : started(answer);
}

/** The second step: a code of the authenticator app, or a recovery code. */
export async function signInWithCode(challenge: string, second: { code: string } | { recoveryCode: string }): Promise<BrowserSession> {
  return started((await unwrap(api.POST('/api/flash/session/mfa', { body: { challenge, ...second } }))).data);
}

export async function signOut(): Promise<void> {
  await unwrap(api.DELETE('/api/flash/session'));
  useCsrfToken(undefined);
}
