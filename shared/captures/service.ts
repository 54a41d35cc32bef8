import * as repo from './repository';
import * as members from '../members';
import type { OutboxEvent } from '../platform/events/registry';
import { StaleRead, withOptimisticRetry } from '../platform/data/concurrency';
import type { TransactStep } from '../platform/data/transactions';
import { transactWrite } from './repository';
import { event, publish } from '../platform/events/outbox';
import { newId } from '../platform/ids';
import { referralLink } from '../ambassador';
import { sha256Hex } from '../platform/tokens';
import { memberCreation, type MemberTriggers, type MemberRecord } from '../members';
import type { CaptureRecord } from './entities';
import { sealSteps, type WriteOptions } from '../platform/data/write-options';
import { CAPTURE_DEDUPE_WINDOW_SECONDS, normalisePhone, type Capture, type CreateCaptureInput } from './schemas';

export interface CaptureResult {
  capture: Capture;
  duplicate: boolean;
}

const toCapture = ({ workspaceId: _w, ...c }: CaptureRecord, duplicate: boolean): Capture => ({ ...c, duplicate });

/**
 * The identity of a submission: the e-mail when there is one, else the phone. Together with the
 * source it names the dedupe window (hashed: no personal data in keys).
 */
export const fingerprintOf = (input: Pick<CreateCaptureInput, 'email' | 'phone' | 'source'>) =>
  sha256Hex(`${input.email ? `e:${input.email}` : `p:${normalisePhone(input.phone!)}`}\n${input.source}`);

const phoneOf = (m: MemberRecord | undefined) => (m?.phone ? normalisePhone(m.phone) : undefined);

/** The member a capture matches: by e-mail; by phone only when the capture has no e-mail. */
interface Match {
  matched: MemberRecord | undefined;
  matchedBy: Capture['matchedBy'];
  /** The member the phone lookup names, if it still holds that phone. */
  phoneHolderValid: boolean;
}

async function matchOf(workspaceId: string, input: CreateCaptureInput, phone: string | undefined, byEmail?: string, byPhone?: string): Promise<Match> {
  const phoneHolder = byPhone ? await members.getMemberRecord(workspaceId, byPhone) : undefined;
  const phoneHolderValid = phoneHolder !== undefined && phoneOf(phoneHolder) === phone;
  if (input.email) {
    if (!byEmail) return { matched: undefined, matchedBy: null, phoneHolderValid };
    const matched = await members.getMemberRecord(workspaceId, byEmail);
    if (!matched) throw new StaleRead('member');
    return { matched, matchedBy: 'email', phoneHolderValid };
  }
  return phoneHolderValid ? { matched: phoneHolder, matchedBy: 'phone', phoneHolderValid } : { matched: undefined, matchedBy: null, phoneHolderValid };
}

/** The member the capture is for: the matched one, or a new one (its creation steps and events added). */
async function targetOf(
  workspaceId: string,
  input: CreateCaptureInput,
  matched: MemberRecord | undefined,
  at: Date,
  steps: TransactStep[],
  events: OutboxEvent[],
  after: (() => Promise<void>)[],
  triggers: MemberTriggers,
): Promise<MemberRecord> {
  if (matched) return matched;
  const creation = await memberCreation(
    workspaceId,
    {
      email: input.email ?? null,
      phone: input.phone ?? null,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      customAttributes: input.attributes ?? {},
    },
    triggers,
    at,
  );
  // A lookup taken meanwhile means someone enrolled this person concurrently: re-read and match.
  steps.push(...creation.steps.map((s) => ({ ...s, onConditionFailed: () => new StaleRead('member') })));
  events.push(...creation.events);
  after.push(creation.owed.settle);
  return creation.record;
}

/** The referral outcome of a capture with a code (a new member is linked to the referrer). */
async function referralOf(
  workspaceId: string,
  code: string | undefined,
  matched: boolean,
  link: { memberId: string; captureId: string; at: string },
  steps: TransactStep[],
): Promise<Capture['referral']> {
  if (!code) return null;
  if (matched) return { code, outcome: 'existing_member', referrerId: null };
  const linked = await referralLink(workspaceId, code, link);
  steps.push(...linked.steps);
  return { code, outcome: linked.outcome, referrerId: linked.referrerId };
}

function captureRecord(
  workspaceId: string,
  input: CreateCaptureInput,
  fields: Pick<CaptureRecord, 'id' | 'memberId' | 'memberOutcome' | 'matchedBy' | 'referral' | 'createdAt'>,
): CaptureRecord {
  return {
    id: fields.id,
    workspaceId,
    memberId: fields.memberId,
    memberOutcome: fields.memberOutcome,
    matchedBy: fields.matchedBy,
    source: input.source,
    email: input.email ?? null,
    phone: input.phone ?? null,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    consents: {
      marketingEmail: input.consents.marketingEmail ?? null,
      marketingSms: input.consents.marketingSms ?? null,
      terms: input.consents.terms ?? null,
    },
    attributes: input.attributes ?? {},
    referral: fields.referral,
    createdAt: fields.createdAt,
  };
}

/**
 * Records a lead. It matches an existing member (by e-mail; by phone only when the capture has no
 * e-mail) or creates one, records the capture and emits `capture.created` (plus `member.created`
 * for a new member), all in ONE transaction with the dedupe window: a submission of the same
 * identity and source within the window answers the first capture with `duplicate: true` and
 * writes nothing. A matched member is never changed by a capture.
 */
export async function createCapture(
  workspaceId: string,
  input: CreateCaptureInput,
  triggers: MemberTriggers,
  opts: WriteOptions<CaptureResult> = {},
  now = () => new Date(),
): Promise<CaptureResult> {
  const { result, after } = await recordCapture(workspaceId, input, triggers, opts, now);
  // A new member's campaign rewards, owed in the capture's transaction.
  for (const settle of after) await settle();
  return result;
}

/** The capture's one transaction, and what runs after it committed. */
async function recordCapture(
  workspaceId: string,
  input: CreateCaptureInput,
  triggers: MemberTriggers,
  opts: WriteOptions<CaptureResult>,
  now: () => Date,
): Promise<{ result: CaptureResult; after: (() => Promise<void>)[] }> {
  const fingerprint = fingerprintOf(input);
  const phone = input.phone ? normalisePhone(input.phone) : undefined;
  return withOptimisticRetry(async () => {
    const at = now();
    const iso = at.toISOString();
    const [window, byEmail, byPhone] = await Promise.all([
      repo.getWindow(workspaceId, fingerprint),
      input.email ? members.memberIdByEmail(workspaceId, input.email) : undefined,
      phone ? repo.phoneOwner(workspaceId, phone) : undefined,
    ]);
    if (window && window.windowEndsAt > iso) {
      const first = await repo.getCapture(workspaceId, window.captureId);
      if (first) return { result: { capture: toCapture(first, true), duplicate: true }, after: [] };
    }
    const { matched, matchedBy, phoneHolderValid } = await matchOf(workspaceId, input, phone, byEmail, byPhone);
    const captureId = newId('cap');
    const steps: TransactStep[] = [];
    const events: OutboxEvent[] = [];
    const after: (() => Promise<void>)[] = [];
    const target = await targetOf(workspaceId, input, matched, at, steps, events, after, triggers);
    // Phone-only captures find members through this lookup; it follows the member's current phone.
    if (phone && phoneOf(target) === phone && byPhone !== target.id && !phoneHolderValid) {
      steps.push(repo.phoneLookupStep(workspaceId, phone, target.id, byPhone));
    }
    const referral = await referralOf(workspaceId, input.referralCode, matched !== undefined, { memberId: target.id, captureId, at: iso }, steps);
    const record = captureRecord(workspaceId, input, {
      id: captureId,
      memberId: target.id,
      memberOutcome: matched ? 'matched' : 'created',
      matchedBy,
      referral,
      createdAt: iso,
    });
    const result: CaptureResult = { capture: toCapture(record, false), duplicate: false };
    const endsAt = new Date(at.getTime() + CAPTURE_DEDUPE_WINDOW_SECONDS * 1000);
    events.push(event('capture.created', { resource_id: captureId, member_ref: target.id }, at));
    await transactWrite([
      ...steps,
      ...repo.captureSteps(record, { fingerprint, endsAt: endsAt.toISOString(), expiresAt: Math.floor(endsAt.getTime() / 1000) + 24 * 3600 }),
      ...publish(workspaceId, events),
      ...sealSteps(opts, result),
    ]);
    return { result, after };
  });
}
