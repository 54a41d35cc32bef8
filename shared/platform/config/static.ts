/**
 * The static part of the configuration: numbers shared by the CDK stack, the functions and the
 * local runtime. One module, so production and `npm start` never drift apart.
 */
/** Lambda time-outs of the two queue workers; each queue's visibility is derived from its worker's. */
const WEBHOOK_WORKER_TIMEOUT_SECONDS = 30;
const WALLET_PUSH_WORKER_TIMEOUT_SECONDS = 30;
/** AWS guidance for SQS event sources: a queue's visibility is at least 6x its consumer's time-out. */
const VISIBILITY_PER_WORKER_TIMEOUT = 6;

export const config = {
  /** Lambda runtime settings per area function. */
  lambda: {
    memoryMiB: 1024,
    timeoutSeconds: 15,
    logRetentionDays: 30,
    /**
     * Reserved concurrency of each area function: its cap and its guarantee of the account's Lambda
     * concurrency, so one area flooded (a runaway integration) cannot take every instance from the
     * others and the queue workers. 24 areas x 30 = 720 of the default account limit of 1000, which
     * leaves 280 unreserved (AWS keeps at least 100 unreserved; the workers draw from it). Raise it
     * only after the account's limit (docs/infra.md, "Concurrency").
     */
    areaReservedConcurrency: 30,
  },
  /**
   * API Gateway stage throttling (token bucket per stage and route, requests per second and burst).
   * `default` applies to every route; an endpoint may name a stricter profile in its declaration
   * (`throttle`). Over the limit API Gateway answers 429 before any function runs.
   */
  throttle: {
    default: { ratePerSecond: 500, burst: 1000 },
    /** Public endpoints that take a credential or send mail: a brake on brute force and mail floods. */
    credentialAttempts: { ratePerSecond: 10, burst: 20 },
  },
  http: {
    /** Largest accepted request body; larger is 413 PAYLOAD_TOO_LARGE. */
    maxBodyBytes: 1024 * 1024,
    /**
     * Deepest nesting of objects and arrays a JSON body may have; deeper is 400 BAD_REQUEST. No
     * request schema comes near it, and everything that walks a body (the idempotency fingerprint,
     * validation) may then recurse safely.
     */
    maxBodyDepth: 64,
    /** What the transport itself accepts before the handler sees it (Lambda's sync payload limit). */
    transportMaxBodyBytes: 6 * 1024 * 1024,
    /**
     * Every API request answers within this many ms of arriving (3 s inside the 15 s Lambda
     * timeout, so the answer is always ours, never Lambda's time-out): at the deadline every store call still in flight is aborted and the request answers
     * 503 (`SERVICE_UNAVAILABLE`, or `OUTCOME_UNKNOWN` for a write whose commit could not be
     * confirmed). Authentication and the idempotency lookup count against it too.
     */
    requestDeadlineMs: 12_000,
    /**
     * The header the platform's CloudFront distribution adds to every request it sends the API,
     * holding a secret (the `originVerify` secret): only a request that carries it may name the
     * viewer's host in `X-Forwarded-Host` (shared/http/origin.ts).
     */
    originVerifyHeader: 'x-origin-verify',
  },
  /**
   * Stored size. DynamoDB refuses an item over 400 KB (names and values, `shared/platform/data/item-size.ts`);
   * every document whose size depends on the request is measured before any write against its
   * budget here and refused with 422 VALIDATION_FAILED naming its largest field. A budget leaves
   * room below the limit for the item's keys, index keys and bookkeeping (versions, counters, time
   * stamps, a member's balances). docs/security.md ("Stored size").
   */
  storage: {
    itemLimitBytes: 400 * 1024,
    documentBudgetBytes: {
      campaign: 350 * 1024,
      objectRecord: 350 * 1024,
      objectType: 350 * 1024,
      member: 300 * 1024,
      product: 300 * 1024,
      couponPool: 300 * 1024,
      programRules: 300 * 1024,
      webhookEndpoint: 300 * 1024,
    },
    /**
     * An idempotent answer is kept compressed; one of more bytes than this is kept in parts of at
     * most this many bytes, written with the answer's record (docs/decisions/0062-stored-size-a-budget-per-document-idempotent-answers-compres.md, "Stored size").
     */
    idempotencyPartBytes: 350 * 1024,
  },
  /**
   * Idempotency-Key: a request claims its key before it runs. A duplicate arriving meanwhile waits
   * up to `inProgressWaitMs` for the first answer (looking every `pollMs`), then is 409
   * IDEMPOTENCY_KEY_IN_USE. A claim is held at most `lambda.timeoutSeconds`: one whose holder died
   * is then taken over.
   */
  idempotency: { inProgressWaitMs: 3000, pollMs: 100 },
  /** JSON-RPC batches of the MCP server. */
  mcp: {
    /** Messages one batch may carry (the protocol SDK's own limit); more is an HTTP 400, audited once. */
    maxBatchMessages: 100,
    /**
     * Write tool calls one batch may carry: every write is a transaction, so a batch of many could
     * not finish inside the request deadline. A batch with more is refused up front, one JSON-RPC
     * error per message (each audited), and nothing in it runs.
     */
    maxWriteCallsPerBatch: 10,
    /**
     * Of the request deadline, kept for the audit: calls still running this long before the deadline
     * answer OUTCOME_UNKNOWN, and every call of the batch is audited before the deadline.
     */
    auditReserveMs: 2000,
  },
  /**
   * The DynamoDB client. A store that does not answer costs at most `requestTimeoutMs` per attempt
   * of a single-item call or query (`bulkRequestTimeoutMs` for transactions and batches, which touch
   * up to 100 items; `connectionTimeoutMs` to connect), and `maxAttempts` attempts per call (the
   * SDK's own retries of reads; single-item writes count their attempts themselves, re-sending only
   * what they can recognise as applied, see `putItem`). Transactions are retried by `transactWrite` itself,
   * with the same `ClientRequestToken`, so that a commit whose answer was lost is confirmed, never
   * applied twice: `transactionConfirmAttempts` attempts in all, inside the request deadline.
   */
  dynamodb: {
    connectionTimeoutMs: 1000,
    /**
     * DynamoDB Local: one JVM on this machine that every request of the local runtime shares. Its
     * connect time-out also counts the time a call waits in the process for a free socket (the
     * SDK's timer starts before), which a burst of a few hundred parallel calls spends there.
     */
    local: { connectionTimeoutMs: 5000, maxSockets: 64 },
    requestTimeoutMs: 2500,
    bulkRequestTimeoutMs: 5000,
    maxAttempts: 2,
    /** Creating or migrating the table (local runtime only) is slow by nature and off the request path. */
    adminRequestTimeoutMs: 60_000,
    transactionConfirmAttempts: 2,
    /**
     * Lost races: a unit whose conditional write failed because another writer got there first
     * re-reads and re-plans (`withOptimisticRetry`), and a transaction that met another one on the
     * same item (TransactionConflict) is sent again. Both wait U(0, min(capMs, baseMs * 2^(n-1)))
     * after the n-th loss (full jitter: the losers of one round spread over the whole window). At
     * most `maxAttempts`; inside a request no new attempt starts with `reserveMs` or less of its
     * deadline left, so the deadline never cuts off a commit (the answer is a definite 409 CONFLICT,
     * nothing applied, rather than OUTCOME_UNKNOWN). docs/performance.md ("Hot members").
     */
    contention: { baseMs: 10, capMs: 400, maxAttempts: 40, reserveMs: 2000 },
  },
  /**
   * Per-container caches of what most requests read and few change. A change made by the same
   * process applies there at once; other containers (other Lambda functions and instances) see it
   * within the number of ms given here. docs/performance.md ("Store calls per operation").
   */
  caches: {
    /** Earn rules and tier ladder of a workspace (orders, points changes, new members). */
    programRulesMs: 5_000,
    /** A workspace's webhook endpoints as the fan-out sees them (which endpoint gets which event). */
    webhookEndpointsMs: 5_000,
    /**
     * Object type definitions for record creation. Never stale in effect: the record's transaction
     * is conditional on the type version it was validated against, and a changed type is read again.
     */
    objectTypesMs: 60_000,
    /** Entries per cache at most (the oldest goes first). */
    maxEntries: 1_000,
  },
  /**
   * Secrets the functions read from Secrets Manager (`shared/platform/ports/secrets.ts`). A value is read on
   * first use and kept for the life of the instance; after `refreshMs` the next use is still served
   * the kept value while it is read again behind it, so no request but an instance's first waits for
   * Secrets Manager. For `previousAcceptedMs` after a rotation the previous value is still accepted
   * (never issued): page cursors signed with it and requests carrying it while the distribution and
   * the instances catch up.
   */
  secrets: {
    refreshMs: 5 * 60_000,
    previousAcceptedMs: 60 * 60_000,
  },
  /**
   * Browser sessions of the console: an HttpOnly cookie instead of a bearer token in browser storage,
   * ended by the idle limit (no request for that long) or the absolute one, whichever comes first.
   */
  browserSession: {
    /** Over https the cookie is `__Host-loyalty_session` (shared/http/browser-session.ts); locally over plain http this name. */
    cookie: 'loyalty_session',
    /** The header a cookie-authenticated write carries its session's CSRF token in. */
    csrfHeader: 'x-csrf-token',
    idleSeconds: 30 * 60,
    absoluteSeconds: 12 * 3600,
    /** lastSeenAt (what the idle limit counts from) is written at most this often per session. */
    seenResolutionSeconds: 60,
  },
  auth: {
    sessionTtlSeconds: 7 * 24 * 3600,
    resetTokenTtlSeconds: 3600,
    minPasswordLength: 10,
    /** Failed logins for one e-mail inside one window before 429. */
    loginFailureLimit: 5,
    loginFailureWindowSeconds: 15 * 60,
    /** lastUsedAt of an API key is written at most this often. */
    apiKeyLastUsedResolutionSeconds: 60,
    /** Two-factor sign-in: how long the step between the password and the code may take, and how many recovery codes a user gets. */
    mfaChallengeTtlSeconds: 5 * 60,
    mfaRecoveryCodes: 10,
    /** The name authenticator apps show beside the account. */
    mfaIssuer: 'Loyalty platform',
  },
  /** The console's Team screen: how long an invitation's link works (then it is refused with 410). */
  team: {
    invitationTtlSeconds: 7 * 24 * 3600,
  },
  /**
   * Webhook delivery. Retries are SQS visibility changes with exponential backoff and full jitter:
   * attempt n waits U(0, min(cap, base * 2^(n-1))). With 15 attempts, base 30 s and cap 6 h the
   * worst case spans ~32.5 h (expected ~16 h); then the redrive moves the message to the DLQ and
   * the delivery is `dead`. Numbers are read through `webhookSettings()`, which the local runtime
   * may shrink with environment variables (tests see a whole retry cycle in seconds).
   */
  webhooks: {
    maxAttempts: 15,
    backoffBaseSeconds: 30,
    backoffCapSeconds: 6 * 3600,
    /** Connect + response, per attempt. */
    deliveryTimeoutSeconds: 10,
    /** Lambda timeout of the delivery worker; the queue's visibility is 6x this (AWS guidance). */
    workerTimeoutSeconds: WEBHOOK_WORKER_TIMEOUT_SECONDS,
    visibilitySeconds: VISIBILITY_PER_WORKER_TIMEOUT * WEBHOOK_WORKER_TIMEOUT_SECONDS,
    workerBatchSize: 10,
    /** Parallel polling loops of the local queue driver (in AWS the event source mapping scales itself). */
    localWorkerConcurrency: 4,
    /**
     * The local queue driver wakes on every send, so a burst fanned out four messages at a time would
     * be received four at a time; a partial batch waits this long for more (a local batching window;
     * SQS long polling fills batches in AWS by itself).
     */
    localBatchWindowMs: 20,
    fanoutBatchSize: 100,
    /** What is read of a receiver's answer, and what of it the delivery log keeps. */
    responseReadCapBytes: 64 * 1024,
    responseExcerptBytes: 1024,
    /** An endpoint failing every attempt for this long is disabled (Svix: 5 days). */
    disableAfterFailingSeconds: 5 * 24 * 3600,
    /** After a secret rotation the old secret keeps signing next to the new one this long. */
    rotationOverlapSeconds: 24 * 3600,
    /**
     * Dead deliveries one bulk replay queues at most: a request stays short however many died; the
     * answer says whether more are left, and the next call takes them (claimed ones leave the index).
     */
    bulkReplayMax: 100,
  },
  /**
   * Signing secrets at rest (envelope encryption, docs/security.md). An unwrapped data key is kept
   * in memory this long, so a busy endpoint costs one KMS Decrypt per container and period, not one
   * per delivery.
   */
  secretSealing: { dataKeyCacheSeconds: 300, dataKeyCacheEntries: 1000 },
  /**
   * Custom objects. `rateGuard`: the per-API-key write-rate guard on record writes. Two fixed
   * windows are counted in one transaction: at most `burst` writes in any 1-second window and at
   * most `perSecond * windowSeconds` in any `windowSeconds` window (20/s sustained = 200 per 10 s).
   * The guard fails closed: no answer from its store within `timeoutMs` refuses the write (503).
   * Read through `rateGuardSettings()`, which the local runtime and tests may override.
   */
  /**
   * Request budgets per workspace (docs/security.md, "Request budgets per workspace"): every
   * authenticated request (API key, user session, consumer session, MCP) counts against its
   * workspace's read budget (GET, HEAD) or write budget (anything else), per fixed 1-second window,
   * counted across function instances in one counter item per workspace, budget and second. Over
   * the budget: 429 `RATE_LIMITED` with `Retry-After` and `RateLimit-*`. A sandbox gets a quarter
   * of a live workspace's budget, as at Stripe. If the counter does not answer within `timeoutMs`
   * the request is admitted (fail open, logged): a slow counter must not become an outage. Read
   * through `workspaceRateSettings()`; one workspace's own budget through `WORKSPACE_RATE_LIMITS`.
   */
  workspaceRate: { read: 100, write: 100, sandboxRead: 25, sandboxWrite: 25, timeoutMs: 250 },
  objects: {
    rateGuard: { perSecond: 20, burst: 40, windowSeconds: 10, timeoutMs: 300 },
  },
  /**
   * Coupon pools: creating a list pool reserves its codes in transactions of 99 codes each, this
   * many in flight at once. Read through `couponSettings()`: the local runtime lowers it, since
   * DynamoDB Local commits one transaction at a time and more in flight only queue up there.
   */
  coupons: {
    reserveParallelism: 16,
  },
  /**
   * The audit trail (`GET /api/flash/audit`). Each entry carries `expiresAt` = its time plus
   * `retentionDays`, and the table's TTL deletes it after that (DynamoDB deletes expired items
   * within a few days, so an entry may be listed a little longer, never shorter).
   */
  audit: {
    retentionDays: 365,
    /** The most entries one CSV download holds (the newest of the filter): 25 pages, well within a request's deadline. */
    csvMaxRows: 5000,
  },
  /**
   * Data exports (workspace archive and operational CSV/JSONL exports). Read through
   * `exportSettings()`, which the local runtime and tests may shrink with `EXPORT_*` variables.
   */
  /** The program engine's scheduled run of due work (points expiry, warnings, pending activation). */
  programDue: {
    /** Minutes between runs: how late at most an expiry or activation of a live workspace lands. */
    tickMinutes: 15,
    timeoutSeconds: 300,
    /**
     * Members of one workspace settled at a time: each is a few round trips that wait on the store,
     * so a run is latency-bound one member after another (about 23 members/s in AWS on paper).
     */
    memberConcurrency: 8,
  },
  exports: {
    /** Records per archive section at most; a larger section is cut there and says `capped: true`. */
    archiveSectionCap: 100_000,
    /** Rows of one operational export at most (spec: about 200,000). */
    operationalRowCap: 200_000,
    /** Lifetime of a signed download link (a fresh one is minted per request). */
    linkTtlSeconds: 600,
    /** Archives and exported files are deleted by the bucket's lifecycle rule this many days after they are written. */
    retentionDays: 7,
    /**
     * A job still pending or running this long after it was created is failed when next read (a
     * crashed runner never leaves it `running`, and the workspace can start another one). Longer
     * than the workflow's own time-out.
     */
    jobDeadlineSeconds: 3 * 3600,
    /** Items per DynamoDB Query page while exporting. */
    readPageSize: 1000,
    /** Multipart upload: bytes per part and parts in flight (memory ~ partBytes x (queue + 1)). */
    uploadPartBytes: 5 * 1024 * 1024,
    uploadQueueSize: 2,
    /** The schedules' tick: a run is started at most this long after its local hour. */
    scheduleTickMinutes: 15,
    /** Completion notices: per-attempt time-out; the retries are the workflow's (export.asl.json). */
    noticeTimeoutSeconds: 10,
    /** Lambda time-out of the longest export steps (a section, the archive, an operational file): Lambda's maximum. */
    stepTimeoutSeconds: 900,
    /** Lambda time-out of the schedules' tick (it only starts due runs). */
    schedulerTimeoutSeconds: 60,
  },
  /** Import jobs (members, opening balances, tiers from a CSV or JSON Lines file). */
  imports: {
    /** Lifetime of the presigned upload link of a job's file. */
    uploadLinkTtlSeconds: 3600,
    /** Bytes of one import file at most (a presigned PUT is one request: S3 takes up to 5 GB). */
    maxFileBytes: 5 * 1024 ** 3,
    /** Errors a preview lists (the counts cover every row). */
    previewErrors: 100,
    /** Rows of one apply chunk (one workflow Map item). */
    chunkRows: 200,
    /** Chunks applied at once (the workflow Map's MaxConcurrency), and rows at once inside a chunk. */
    chunkConcurrency: 2,
    rowConcurrency: 8,
    /** Member lookups at once while previewing. */
    previewConcurrency: 16,
    /** An applied job can be undone this many days after it completed. */
    undoDays: 7,
  },
  /**
   * Retries of the export workflow's Task states (infra/app/workflows/export.asl.json gets them as
   * substitutions, in AWS and locally). `task`: Lambda service errors of every Task; `markFailed`:
   * any error of MarkFailed, a few more times (a job must not stay running). The completion notices
   * are retried like webhook deliveries (config.webhooks: base, attempts, cap, doubling).
   */
  exportWorkflowRetry: {
    task: { intervalSeconds: 2, maxAttempts: 3, backoffRate: 2 },
    markFailed: { intervalSeconds: 2, maxAttempts: 5, backoffRate: 2 },
  },
  /** Message retention of every queue, in days (SQS keeps 14 at most; a DLQ keeps longer than its source queue). */
  queues: {
    retentionDays: { webhookDeliveries: 4, webhookDeadLetters: 14, walletPushes: 1, walletPushDeadLetters: 14, scheduleFailures: 14 },
  },
  mail: {
    /** Sender when neither the `mailFrom` CDK context nor `MAIL_FROM` says otherwise. */
    defaultFrom: 'no-reply@loyalty.example',
  },
  // --- Member portal sessions and wallet cards ---
  /**
   * Member portal (consumer) sessions: minted by the workspace's server for one member, short-lived
   * because they sit in a browser (the embed asks for a new one when it expires).
   */
  portal: {
    sessionTtlSeconds: 30 * 60,
    /**
     * Cross-origin embed (docs/security.md): at most `maxOrigins` allowed origins per workspace; a
     * browser keeps a preflight answer `preflightMaxAgeSeconds`; a function keeps a workspace's
     * allow-list `cacheSeconds` (a change made elsewhere is seen at most that late).
     */
    cors: { maxOrigins: 20, preflightMaxAgeSeconds: 600, cacheSeconds: 30 },
  },
  /**
   * Wallet cards. `push`: the wallet push queue between the table stream (a member's points, tier or
   * status changed) and the APNs / Google Wallet calls. Messages wait `coalesceSeconds` before they
   * become visible, so a burst of changes of one member leads to one refresh (the pass content is
   * compared before anything is sent); a failed attempt (APNs 429/5xx, Google 5xx) comes back after
   * U(0, min(cap, base * 2^(n-1))) seconds, and after `maxReceiveCount` receives the message moves
   * to the dead-letter queue, which has an alarm.
   */
  wallet: {
    /** Random bytes of a pass's `authenticationToken` (base64url: 32 characters, Apple asks >= 16). */
    authTokenBytes: 24,
    /**
     * Re-issuing a pass keeps the earlier tokens valid (copies on other devices) up to this many; a
     * re-issue drops the oldest beyond it, but never one issued less than `tokenGraceSeconds` ago
     * (parallel issues all work; the list may then hold more for a while).
     */
    maxTokensPerPass: 5,
    tokenGraceSeconds: 600,
    /** Device log lines accepted per `POST /log` call, and characters kept of each. */
    maxLogLines: 100,
    maxLogLineLength: 1000,
    /** Time-out of one call to APNs or the Google Wallet API. */
    peerTimeoutMs: 5_000,
    /** APNs provider tokens are valid 1 h; a new one is minted after this many seconds. */
    apnsTokenRefreshSeconds: 45 * 60,
    push: {
      coalesceSeconds: 2,
      batchSize: 10,
      workerTimeoutSeconds: WALLET_PUSH_WORKER_TIMEOUT_SECONDS,
      visibilitySeconds: VISIBILITY_PER_WORKER_TIMEOUT * WALLET_PUSH_WORKER_TIMEOUT_SECONDS,
      maxReceiveCount: 6,
      backoffBaseSeconds: 5,
      backoffCapSeconds: 300,
      streamBatchSize: 100,
      localConcurrency: 2,
    },
  },
  /**
   * Thresholds of the operators' alarms (the stack's dashboard and alarms; every alarm notifies the
   * one alarm topic and names its runbook section in docs/operations.md). Counts are the Sum over
   * `periodMinutes`; an alarm fires when its value is above the threshold for one period.
   */
  alarms: {
    periodMinutes: 5,
    /** A dead-letter queue's "not empty" alarm looks at every minute. */
    deadLetterPeriodMinutes: 1,
    /** 5xx answers / requests of the whole API. */
    api5xxRate: 0.01,
    /** p99 latency of the whole API over `apiLatencyPeriodMinutes`, ms. */
    apiP99LatencyMs: 3000,
    apiLatencyPeriodMinutes: 15,
    /** Errors (uncaught exceptions, timeouts) and throttled invocations of one function. */
    functionErrors: 0,
    functionThrottles: 0,
    /**
     * Age of the oldest message of a work queue, seconds: nobody picks its messages up. The webhook
     * deliveries wait out backoffs of up to 6 h, but SQS leaves a message received three times or
     * more out of the metric, so an hour means fresh deliveries are stuck.
     */
    queueOldestMessageSeconds: { webhookDeliveries: 3600, walletPushes: 15 * 60 },
    /** Age of the oldest message of a dead-letter queue: half of its 14-day retention, time left to replay it. */
    deadLetterOldestMessageSeconds: 7 * 24 * 3600,
    /** A table stream consumer this far behind the stream (records are trimmed after 24 h), ms. */
    streamIteratorAgeMs: 10 * 60 * 1000,
    /** Read or write throttle events of the table and its indexes. */
    tableThrottleEvents: 0,
    /** DynamoDB system errors (HTTP 500 of the service) of the operations the platform calls. */
    tableSystemErrors: 0,
    /** Invocations of a schedule's target that failed for good (after EventBridge's retries). */
    scheduleFailedInvocations: 0,
  },
  /** Password hashing (scrypt, memory-hard): N=2^15, r=8 -> 32 MiB per hash. */
  scrypt: { N: 2 ** 15, r: 8, p: 1, keyLength: 32, saltLength: 16 },
} as const;
