import { expect } from 'vitest';
import { call, createKey, registerAccount, uniqueEmail, type Account } from './api';
import { SCOPES } from '../../shared/platform/contract/scopes';

export interface Tenant extends Account {
  /** An API key with every scope. */
  key: string;
}

/** A fresh workspace with an all-scopes API key (`extra`: more of the register body, e.g. `sandbox`). */
export async function tenant(label = 'tenant', extra: Record<string, unknown> = {}): Promise<Tenant> {
  const account = await registerAccount(label, extra);
  const key = await createKey(account.token, { name: 'all', scopes: [...SCOPES] });
  return { ...account, key: key.key };
}

export async function newMember(key: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await call('POST', '/api/v2/members', { token: key, body: { email: uniqueEmail('member'), ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

let orderSeq = 0;
export const orderId = (prefix = 'ORD') => `${prefix}-${Date.now().toString(36)}-${++orderSeq}`;

export async function newOrder(key: string, memberId: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await call('POST', '/api/v2/orders', {
    token: key,
    body: { externalOrderId: orderId(), memberId, currency: 'EUR', total: 100, occurredAt: new Date().toISOString(), ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function balanceOf(key: string, memberId: string): Promise<{ balance: number; pending: number; lifetime: number }> {
  const res = await call('GET', `/api/v2/members/${memberId}`, { token: key });
  expect(res.status).toBe(200);
  return res.body.data.points;
}

/** The next `day` (0 Sunday ... 6 Saturday) after today, at `hour`:00 UTC: a weekday in the future, which no backdating limit refuses. */
export function nextWeekday(day: number, hour: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + ((day - d.getUTCDay() + 7) % 7 || 7));
  d.setUTCHours(hour, 0, 0, 0);
  return d.toISOString();
}
