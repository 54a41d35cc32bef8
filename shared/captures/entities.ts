/**
 * Captured leads as the table stores them. A plain declaration below the domain, so the data layer
 * can name it without importing it. A capture is answered as stored (plus whether the request was a
 * duplicate): the domain's answer schema is checked against `CaptureRecord` at compile time
 * (`SameShape`), so this stays the one description of what is stored.
 */

import type { ReferralOutcome } from '../ambassador';

export interface CaptureRecord {
  id: string;
  workspaceId: string;
  memberId: string;
  memberOutcome: 'created' | 'matched';
  matchedBy: 'email' | 'phone' | null;
  source: string;
  email: string | null;
  phone: string | null;
  firstName: string | null;
  lastName: string | null;
  consents: { marketingEmail: boolean | null; marketingSms: boolean | null; terms: boolean | null };
  attributes: Record<string, string | number | boolean>;
  referral: { code: string; outcome: ReferralOutcome; referrerId: string | null } | null;
  createdAt: string;
}
