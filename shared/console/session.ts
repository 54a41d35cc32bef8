import type { components } from '../client/schema';
import { api, unwrap, useCsrfToken } from './api';

export type BrowserSession = components['schemas']['BrowserSession'];

/** The session of this browser, if its cookie still holds one (after a reload). */
export async function currentSession(): Promise<BrowserSession | undefined> {
  const { data, response } = await api.GET('/api/flash/session');
  if (!response.ok || !data) return undefined;
  useCsrfToken(data.data.session.csrfToken);
  return data.data;
}

export async function signIn(email: string, password: string): Promise<BrowserSession> {
  const answer = await unwrap(api.POST('/api/flash/session', { body: { email, password } }));
  useCsrfToken(answer.data.session.csrfToken);
  return answer.data;
}

export async function signOut(): Promise<void> {
  await unwrap(api.DELETE('/api/flash/session'));
  useCsrfToken(undefined);
}
