import { config } from './static';

/**
 * The one override mechanism: a group of numbers from `static.ts` of which some may be replaced by
 * environment variables (the local runtime and tests shrink retry waits and guard budgets). CDK
 * writes the same variables with the static values, so Lambda and `npm start` read one path.
 */
export interface NumberGroup<K extends string> {
  readonly defaults: Readonly<Record<K, number>>;
  /** Overridable keys and their variable names. */
  readonly env: Readonly<Partial<Record<K, string>>>;
  /** What a valid override is, e.g. "a non-negative number". */
  readonly rule: { readonly describe: string; readonly accepts: (n: number) => boolean };
}

const nonNegative = { describe: 'a non-negative number', accepts: (n: number) => Number.isFinite(n) && n >= 0 };
const positiveInteger = { describe: 'a positive integer', accepts: (n: number) => Number.isInteger(n) && n >= 1 };

export type WebhookSettings = { -readonly [K in keyof typeof config.webhooks]: number };
export type RateGuardSettings = { -readonly [K in keyof typeof config.objects.rateGuard]: number };
export type CouponSettings = { -readonly [K in keyof typeof config.coupons]: number };
export type ExportSettings = { -readonly [K in keyof typeof config.exports]: number };

export const WEBHOOK_NUMBERS: NumberGroup<keyof WebhookSettings> = {
  defaults: config.webhooks,
  env: {
    maxAttempts: 'WEBHOOK_MAX_ATTEMPTS',
    backoffBaseSeconds: 'WEBHOOK_BACKOFF_BASE_SECONDS',
    backoffCapSeconds: 'WEBHOOK_BACKOFF_CAP_SECONDS',
    visibilitySeconds: 'WEBHOOK_VISIBILITY_SECONDS',
    deliveryTimeoutSeconds: 'WEBHOOK_DELIVERY_TIMEOUT_SECONDS',
    rotationOverlapSeconds: 'WEBHOOK_ROTATION_OVERLAP_SECONDS',
    disableAfterFailingSeconds: 'WEBHOOK_DISABLE_AFTER_FAILING_SECONDS',
    bulkReplayMax: 'WEBHOOK_BULK_REPLAY_MAX',
  },
  rule: nonNegative,
};

export const RATE_GUARD_NUMBERS: NumberGroup<keyof RateGuardSettings> = {
  defaults: config.objects.rateGuard,
  env: {
    perSecond: 'OBJECTS_RATE_PER_SECOND',
    burst: 'OBJECTS_RATE_BURST',
    timeoutMs: 'OBJECTS_RATE_GUARD_TIMEOUT_MS',
  },
  rule: positiveInteger,
};

/** The numbers of a group in force: the static values with the environment's overrides. */
export function numbersOf<K extends string>(group: NumberGroup<K>, env: Record<string, string | undefined> = process.env): Record<K, number> {
  const out = { ...group.defaults } as Record<K, number>;
  for (const [key, name] of Object.entries(group.env) as [K, string][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!group.rule.accepts(value)) throw new Error(`${name} must be ${group.rule.describe}, got ${raw}`);
    out[key] = value;
  }
  return out;
}

/** Every variable of a group set to its static value (what CDK puts on a function). */
export function environmentOf<K extends string>(group: NumberGroup<K>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, name] of Object.entries(group.env) as [K, string][]) out[name] = String(group.defaults[key]);
  return out;
}

export const COUPON_NUMBERS: NumberGroup<keyof CouponSettings> = {
  defaults: config.coupons,
  env: { reserveParallelism: 'COUPON_RESERVE_PARALLELISM' },
  rule: positiveInteger,
};

/** Environment variables that may override a webhook number. */
export const WEBHOOK_ENV = WEBHOOK_NUMBERS.env;
/** Environment variables that may override a rate-guard number. */
export const RATE_GUARD_ENV = RATE_GUARD_NUMBERS.env;

export const webhookSettings = (env?: Record<string, string | undefined>): WebhookSettings => numbersOf(WEBHOOK_NUMBERS, env);
export const rateGuardSettings = (env?: Record<string, string | undefined>): RateGuardSettings => numbersOf(RATE_GUARD_NUMBERS, env);
export const couponSettings = (env?: Record<string, string | undefined>): CouponSettings => numbersOf(COUPON_NUMBERS, env);

// --- Request budgets per workspace ---
export type WorkspaceRateSettings = { -readonly [K in keyof typeof config.workspaceRate]: number };

export const WORKSPACE_RATE_NUMBERS: NumberGroup<keyof WorkspaceRateSettings> = {
  defaults: config.workspaceRate,
  env: {
    read: 'WORKSPACE_READ_PER_SECOND',
    write: 'WORKSPACE_WRITE_PER_SECOND',
    sandboxRead: 'SANDBOX_READ_PER_SECOND',
    sandboxWrite: 'SANDBOX_WRITE_PER_SECOND',
    timeoutMs: 'WORKSPACE_RATE_TIMEOUT_MS',
  },
  rule: positiveInteger,
};

export const workspaceRateSettings = (env?: Record<string, string | undefined>): WorkspaceRateSettings => numbersOf(WORKSPACE_RATE_NUMBERS, env);

/** One workspace's own budgets (requests per second), replacing its mode's; either may be left out. */
export type WorkspaceRateOverride = { read?: number; write?: number };

/** The variable that names workspaces with budgets of their own: `{"ws_...": {"read": 500, "write": 200}}`. */
export const WORKSPACE_RATE_LIMITS_ENV = 'WORKSPACE_RATE_LIMITS';

/** The per-workspace budgets of `WORKSPACE_RATE_LIMITS`; a malformed value is an error at start, never ignored. */
export function workspaceRateOverrides(env: Record<string, string | undefined> = process.env): Map<string, WorkspaceRateOverride> {
  const raw = env[WORKSPACE_RATE_LIMITS_ENV];
  const out = new Map<string, WorkspaceRateOverride>();
  if (raw === undefined || raw.trim() === '') return out;
  const fail = (why: string): never => {
    throw new Error(`${WORKSPACE_RATE_LIMITS_ENV} must be a JSON object of workspace id -> { read?, write? } (positive integers): ${why}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    fail('not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail('not an object');
  for (const [workspaceId, budgets] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof budgets !== 'object' || budgets === null || Array.isArray(budgets)) fail(`${workspaceId} is not an object`);
    const entry: WorkspaceRateOverride = {};
    for (const [name, value] of Object.entries(budgets as Record<string, unknown>)) {
      if (name !== 'read' && name !== 'write') fail(`${workspaceId}.${name} is not read or write`);
      if (typeof value !== 'number' || !positiveInteger.accepts(value)) fail(`${workspaceId}.${name} is not a positive integer`);
      entry[name as 'read' | 'write'] = value as number;
    }
    out.set(workspaceId, entry);
  }
  return out;
}

// --- Data exports ---
export const EXPORT_NUMBERS: NumberGroup<keyof ExportSettings> = {
  defaults: config.exports,
  env: {
    archiveSectionCap: 'EXPORT_ARCHIVE_SECTION_CAP',
    operationalRowCap: 'EXPORT_OPERATIONAL_ROW_CAP',
    linkTtlSeconds: 'EXPORT_LINK_TTL_SECONDS',
    jobDeadlineSeconds: 'EXPORT_JOB_DEADLINE_SECONDS',
    noticeTimeoutSeconds: 'EXPORT_NOTICE_TIMEOUT_SECONDS',
  },
  rule: positiveInteger,
};

export const exportSettings = (env?: Record<string, string | undefined>): ExportSettings => numbersOf(EXPORT_NUMBERS, env);

// --- Password hashing ---
/**
 * The scrypt cost of new password hashes. Only a local runtime may lower it (its tests register
 * hundreds of workspaces, at about 160 ms of CPU per hash at the static cost); in AWS the static
 * cost holds whatever the environment says. A hash names its own cost, so hashes of either verify.
 */
export const PASSWORD_NUMBERS: NumberGroup<'N'> = {
  defaults: { N: config.scrypt.N },
  env: { N: 'PASSWORD_SCRYPT_N' },
  rule: { describe: 'a power of two from 1024 to 1048576', accepts: (n: number) => Number.isInteger(n) && n >= 1024 && n <= 2 ** 20 && (n & (n - 1)) === 0 },
};

export const passwordSettings = (env: Record<string, string | undefined> = process.env): { N: number } =>
  env.STAGE === 'local' ? numbersOf(PASSWORD_NUMBERS, env) : { ...PASSWORD_NUMBERS.defaults };
