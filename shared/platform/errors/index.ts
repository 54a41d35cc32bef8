/**
 * Every failure a caller can see. The HTTP layer turns an AppError into
 * `{ error: { code, message, details?, requestId } }` with `status`; anything else becomes a 500
 * with no internals.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { status: 400, meaning: 'Malformed JSON or an unusable request' },
  UNAUTHENTICATED: { status: 401, meaning: 'Missing, unknown, expired or revoked credential' },
  FORBIDDEN: { status: 403, meaning: 'Credential lacks the scope or permission the route needs' },
  MFA_ENROLMENT_REQUIRED: { status: 403, meaning: 'The workspace requires two-factor sign-in: the user must enrol before anything else' },
  NOT_FOUND: { status: 404, meaning: 'Unknown path, or an object that does not exist in your workspace' },
  METHOD_NOT_ALLOWED: { status: 405, meaning: 'Known path, other method; see the Allow header' },
  CONFLICT: { status: 409, meaning: 'The request conflicts with current state (e.g. e-mail taken)' },
  INSUFFICIENT_POINTS: { status: 409, meaning: 'A deduction larger than the balance' },
  REFUND_EXCEEDS_REMAINING: { status: 409, meaning: 'A refund larger than what is left to refund on the order' },
  POOL_EXHAUSTED: { status: 409, meaning: 'The coupon pool has no stock left' },
  POOL_NOT_ACTIVE: { status: 409, meaning: 'The coupon pool is switched off or outside its validity window' },
  COUPON_LIMIT_REACHED: { status: 409, meaning: 'The member already holds as many coupons of this pool as it allows' },
  COUPON_ALREADY_REDEEMED: { status: 409, meaning: 'The coupon was already redeemed (a coupon is redeemed at most once)' },
  // Rewards
  REWARD_NOT_AVAILABLE: { status: 409, meaning: 'The reward is not active, or outside its availability window' },
  REWARD_TIER_NOT_ALLOWED: { status: 409, meaning: "The member's tier is not among the tiers the reward allows" },
  REWARD_OUT_OF_STOCK: { status: 409, meaning: 'The reward has no stock left' },
  REWARD_LIMIT_REACHED: { status: 409, meaning: 'The member already holds as many redemptions of the reward as it allows' },
  REDEMPTION_USED: { status: 409, meaning: 'A redemption already used (on another order, or its code redeemed) was to be voided or used' },
  REDEMPTION_VOIDED: { status: 409, meaning: 'A voided redemption was to be used at checkout' },
  IDEMPOTENCY_KEY_IN_USE: { status: 409, meaning: 'A request with this Idempotency-Key is still in progress' },
  DELIVERY_IN_PROGRESS: { status: 409, meaning: "A replay was asked for a webhook delivery whose retry chain (or an earlier replay's) is still live" },
  // Data exports
  EXPORT_NOT_COMPLETED: { status: 409, meaning: 'A download link was asked for an export job that has not completed' },
  GONE: { status: 410, meaning: 'The object existed but is used up or removed (e.g. a used reset token)' },
  COUPON_EXPIRED: { status: 410, meaning: 'The coupon expired before it was redeemed' },
  MEMBER_ERASED: { status: 410, meaning: 'The member was erased (right to erasure); it takes no more writes' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'Request body over 1 MiB' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'A request body whose Content-Type is not JSON (`application/json`)' },
  VALIDATION_FAILED: { status: 422, meaning: 'Schema failure; one detail per field' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, meaning: 'The Idempotency-Key was used with a different request' },
  RATE_LIMITED: { status: 429, meaning: 'Too many requests; retry after the Retry-After seconds' },
  REQUEST_HEADER_FIELDS_TOO_LARGE: { status: 431, meaning: 'The URL or the request headers are too large (refused before routing)' },
  INTERNAL: { status: 500, meaning: 'Unexpected failure; quote the requestId to support' },
  // --- Wallet cards ---
  WALLET_NOT_CONFIGURED: { status: 501, meaning: 'Wallet cards of the requested platform are not configured on this platform (no credentials)' },
  SERVICE_UNAVAILABLE: { status: 503, meaning: 'A dependency could not answer; nothing was applied, safe to retry' },
  OUTCOME_UNKNOWN: {
    status: 503,
    meaning: 'The store could not confirm whether the write was applied; retry with the same Idempotency-Key',
  },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** What a caller should do about each code: the reference page's section on the code says it. */
export const ERROR_ADVICE: Record<ErrorCode, string> = {
  BAD_REQUEST:
    'Fix the request as the message says (send valid JSON, pass back a cursor unchanged, ask for a new reset token); repeating it unchanged fails again.',
  UNAUTHENTICATED:
    'Send `Authorization: Bearer <token>` with a valid API key or session. One message covers missing, unknown, expired and revoked credentials, so check which one you sent; sign in again if a session expired.',
  FORBIDDEN:
    'The credential is valid but may not do this: use a key with the scope the message names, a session of a user whose role holds the permission the message names, or the kind of credential the operation lists.',
  MFA_ENROLMENT_REQUIRED:
    'Enrol an authenticator app (`POST /api/flash/mfa/enrolment`, then `POST /api/flash/mfa/confirm` with a code); the session may do everything its role allows from then on.',
  NOT_FOUND: "Check the path and the id. Objects of another workspace are not found either, so check that the credential belongs to the object's workspace.",
  METHOD_NOT_ALLOWED: 'Use one of the methods the `Allow` header lists for this path.',
  CONFLICT: 'Read the current state (the message says what conflicts), then decide whether to retry; a concurrent change may simply be retried.',
  INSUFFICIENT_POINTS: "Deduct at most the member's balance (`GET /api/v2/members/{id}/points`).",
  REFUND_EXCEEDS_REMAINING: 'Refund at most what is left to refund on the order; the order shows what was refunded already.',
  POOL_EXHAUSTED: 'Add codes to the pool, or issue from another pool.',
  POOL_NOT_ACTIVE: 'Switch the pool on, or issue within its `validFrom`-`validUntil` window.',
  COUPON_LIMIT_REACHED: "The member holds the pool's `perMemberLimit` coupons already; nothing to retry.",
  COUPON_ALREADY_REDEEMED: 'A coupon is redeemed at most once; nothing to retry.',
  REWARD_NOT_AVAILABLE: 'Activate the reward, or redeem it within its `availableFrom`-`availableUntil` window.',
  REWARD_TIER_NOT_ALLOWED: "Only members of the reward's `allowedTiers` may redeem it; offer the member another reward.",
  REWARD_OUT_OF_STOCK: "Raise the reward's `stock`, or offer another reward; voided redemptions give stock back.",
  REWARD_LIMIT_REACHED: "The member holds the reward's `perMemberLimit` redemptions already; nothing to retry.",
  REDEMPTION_USED: 'A used reward cannot be voided or used again; if the order it was used on is refunded, give the points back by hand (docs/rewards.md).',
  REDEMPTION_VOIDED: 'The redemption was taken back and its points returned; the member may redeem the reward again.',
  DELIVERY_IN_PROGRESS:
    'Wait until the delivery is `delivered`, `failed` or `dead` (the delivery log shows its state and next retry), then replay it if it still needs sending.',
  EXPORT_NOT_COMPLETED: "Wait until the export job's `status` is `completed` (poll the job), then ask for the link again.",
  GONE: 'The object was used up or expired (e.g. a used password-reset token): start over (ask for a new token).',
  COUPON_EXPIRED: "The coupon's `validUntil` has passed; it can no longer be redeemed.",
  MEMBER_ERASED:
    'Erasure is final: the member keeps only pseudonymous history. To enrol the same person again, create a new member (the e-mail and externalId are free again).',
  PAYLOAD_TOO_LARGE: 'Send at most 1 MiB of body; split bulk requests into several.',
  UNSUPPORTED_MEDIA_TYPE:
    "Send the body as JSON with `Content-Type: application/json` (with curl: `--json '{...}'`, or `-H \"Content-Type: application/json\" -d '{...}'`).",
  VALIDATION_FAILED: 'Each entry of `details` names a field (`in`: body, query, path or header) and says what to send; fix those fields and send again.',
  IDEMPOTENCY_KEY_IN_USE:
    "Wait the `Retry-After` seconds, then send the very same request again with the same key: it then replays the first request's answer.",
  IDEMPOTENCY_KEY_REUSED: 'Use a new `Idempotency-Key` for a different request; reuse a key only to retry the very same request.',
  RATE_LIMITED: 'Wait the `Retry-After` seconds, then retry.',
  REQUEST_HEADER_FIELDS_TOO_LARGE: 'Shorten the URL (fewer or shorter query parameters) or the headers.',
  INTERNAL: 'Retry later; if it persists, contact support with the `requestId`.',
  WALLET_NOT_CONFIGURED: 'Wallet cards of this platform (`apple`, `google`) are not set up on this installation: ask its operator, or use the other platform.',
  SERVICE_UNAVAILABLE: 'Nothing was applied: retry after the `Retry-After` seconds.',
  OUTCOME_UNKNOWN: 'Retry with the same `Idempotency-Key`: a write that did commit is then replayed, never applied twice.',
};

export interface ErrorDetail {
  /** Where the offending value is: `body`, `query`, `path` or `header`. */
  in: 'body' | 'query' | 'path' | 'header';
  /** Dotted path of the field inside that location (`items.0.sku`); the location's name (`body`) for the whole. */
  field: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const unauthenticated = (message = 'Missing or invalid credential') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);
export const mfaEnrolmentRequired = () =>
  new AppError('MFA_ENROLMENT_REQUIRED', 'Your workspace requires two-factor sign-in: enrol an authenticator app first (POST /api/flash/mfa/enrolment)');
export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const gone = (message: string) => new AppError('GONE', message);
export const memberErased = () => new AppError('MEMBER_ERASED', 'The member was erased; it takes no more writes (enrol the person as a new member)');
export const rateLimited = (retryAfterSeconds: number, message = 'Too many requests') =>
  new AppError('RATE_LIMITED', message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const validationFailed = (details: ErrorDetail[]) => new AppError('VALIDATION_FAILED', 'The request is invalid; see details', details);
/**
 * The store refused an item over its size limit (400 KB), which the document budgets should have
 * caught before: still the caller's to shorten (nothing was applied), never an internal error.
 */
export const tooLargeToStore = () =>
  validationFailed([{ in: 'body', field: 'body', message: 'too large to store: an item would exceed the store limit of 400 KB; send less' }]);

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 1;

/**
 * A write whose commit the store could not confirm either way (e.g. it timed out after the request
 * was sent). Retrying with the same Idempotency-Key is safe: a write that did commit is replayed,
 * one that did not is applied once.
 */
/**
 * The message of `OUTCOME_UNKNOWN` for the request at hand: only a request that sent an
 * Idempotency-Key can be retried blindly; without one, the caller must look before sending again.
 */
export const outcomeUnknownMessage = (sentIdempotencyKey: boolean): string =>
  sentIdempotencyKey
    ? 'The write could not be confirmed and may or may not have been applied; retry with the same Idempotency-Key'
    : 'The write could not be confirmed and may or may not have been applied; read the object back before sending it again';

export const outcomeUnknown = (cause?: unknown) =>
  Object.assign(new AppError('OUTCOME_UNKNOWN', outcomeUnknownMessage(true), undefined, { 'retry-after': String(RETRY_AFTER_SECONDS) }), { cause });

/** The answer (410) to a reset token that was used, has expired or was voided. */
export const RESET_TOKEN_GONE = 'This reset token was already used, has expired, or was voided by a later change of the account';
