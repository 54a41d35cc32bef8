/**
 * Key layouts of every entity, as data. Templates name their parts in braces; `keyOf` fills the
 * primary key and `indexKeysOf` the GSI keys.
 *
 * Rule: every tenant entity's keys (primary and GSI) start with `WS#{workspaceId}`, and the
 * workspace id comes from the credential. The only global entities are the credential lookups,
 * which exist precisely to find the workspace of a presented secret or login e-mail; their keys are
 * hashes (or the e-mail), never guessable ids. A unit test enforces both halves of the rule.
 *
 * Entities that grow with a workspace (members, orders) get a partition of their own and are listed
 * through a GSI, so no workspace piles into one hot partition.
 */
export const ENTITIES = {
  workspace: { pk: 'WS#{workspaceId}', sk: 'WORKSPACE' },
  user: { pk: 'WS#{workspaceId}', sk: 'USER#{userId}' },
  apiKey: { pk: 'WS#{workspaceId}', sk: 'APIKEY#{keyId}' },
  /** An invitation to join the workspace's team: few per workspace, in the workspace partition. */
  invitation: { pk: 'WS#{workspaceId}', sk: 'INVITE#{invitationId}' },
  program: { pk: 'WS#{workspaceId}', sk: 'PROGRAM' },
  /** A workspace runs tens of campaigns, not thousands: they share the workspace partition. */
  campaign: { pk: 'WS#{workspaceId}', sk: 'CAMPAIGN#{campaignId}' },
  /**
   * The grant counts of a campaign without a points budget, in shards (a grant adds to one chosen at
   * random): the orders of a busy workspace never all write one item. A campaign with a budget counts
   * on its own item, where the budget's condition is exact.
   */
  campaignTally: { pk: 'WS#{workspaceId}#CAMPAIGN_TALLIES', sk: '{campaignId}#{shard}' },
  /** A member's grants of one campaign (what its `perMember` limit counts), in the member's partition. */
  campaignMemberGrants: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'CAMPAIGN_GRANTS#{campaignId}' },
  /**
   * A campaign's grant for one occurrence of a trigger other than an order (`member_created`, a
   * tagging, a birthday's year, an inactivity spell), put only if absent: what makes it exactly once.
   */
  campaignTriggerGrant: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'CAMPAIGN_TRIGGER#{campaignId}#{occurrence}' },
  /**
   * The rewards a change owes a member for a trigger it made occur (a member created, a tag added),
   * put in that change's own transaction and deleted once the grant ran; gsi2 lists what is still
   * owed, so the due work grants what a store fault after the change left ungranted.
   */
  triggerOwed: {
    pk: 'WS#{workspaceId}#MEMBER#{memberId}',
    sk: 'TRIGGER_OWED#{occurrence}',
    gsi2: { pk: 'WS#{workspaceId}#TRIGGERS_OWED', sk: '{at}#{memberId}#{occurrence}' },
  },
  /** How far the due-work run has looked for birthdays (a local date) and inactivity spells (an instant). */
  programTriggers: { pk: 'WS#{workspaceId}', sk: 'PROGRAM_TRIGGERS' },
  store: { pk: 'WS#{workspaceId}', sk: 'STORE#{storeId}' },

  member: {
    pk: 'WS#{workspaceId}#MEMBER#{memberId}',
    sk: 'MEMBER',
    gsi1: { pk: 'WS#{workspaceId}#MEMBERS', sk: '{memberId}' },
  },
  /**
   * The member item's entry in the due index (gsi2): set while something of its points falls due
   * (activation, warning, expiry), sorted by that time, so the due-work run reads only what is due.
   */
  memberDue: {
    pk: 'WS#{workspaceId}#MEMBER#{memberId}',
    sk: 'MEMBER',
    gsi2: { pk: 'WS#{workspaceId}#PROGRAM_DUE', sk: '{dueAt}#{memberId}' },
  },
  /**
   * The member item's entry in the activity index (gsi3): by its last earn or spend, so the win-back
   * run reads only the members whose inactivity reached a campaign's days since its last run.
   */
  memberActivity: {
    pk: 'WS#{workspaceId}#MEMBER#{memberId}',
    sk: 'MEMBER',
    gsi3: { pk: 'WS#{workspaceId}#ACTIVITY', sk: '{lastActivityAt}#{memberId}' },
  },
  /** A member's birthday (month and day of the birth date) in the birthday index (gsi1), while the member has a birth date. */
  memberBirthday: {
    pk: 'WS#{workspaceId}#MEMBER#{memberId}',
    sk: 'BIRTHDAY',
    gsi1: { pk: 'WS#{workspaceId}#BIRTHDAYS', sk: '{monthDay}#{memberId}' },
  },
  memberEmail: { pk: 'WS#{workspaceId}#MEMBER_EMAIL#{email}', sk: 'LOOKUP' },
  memberExternalId: { pk: 'WS#{workspaceId}#MEMBER_EXT#{externalId}', sk: 'LOOKUP' },
  /**
   * A member's tier state (retention, qualifying points per day) in the member's partition; gsi2
   * (only while the tier can drop by time alone) lists the members due for a tier review, by the
   * instant it is due.
   */
  memberTier: {
    pk: 'WS#{workspaceId}#MEMBER#{memberId}',
    sk: 'TIER',
    gsi2: { pk: 'WS#{workspaceId}#TIER_REVIEW', sk: '{reviewAt}#{memberId}' },
  },
  /** What a member earned from orders this program day and month, against the program's earning caps (only while caps are set). */
  earnCaps: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'EARN_CAPS' },
  /** Ledger entries live in the member's partition, ordered by the member's ledger sequence. */
  ledgerEntry: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'LEDGER#{seq}' },

  order: {
    pk: 'WS#{workspaceId}#ORDER#{externalOrderId}',
    sk: 'ORDER',
    gsi1: { pk: 'WS#{workspaceId}#ORDERS', sk: '{occurredAt}#{orderId}' },
    gsi2: { pk: 'WS#{workspaceId}#MEMBER#{memberId}#ORDERS', sk: '{occurredAt}#{orderId}' },
  },
  refund: { pk: 'WS#{workspaceId}#ORDER#{externalOrderId}', sk: 'REFUND#{refundId}' },

  // --- Catalog (issue 4) ---
  /**
   * A product: its own partition; listed newest first per workspace (gsi1) and per brand (gsi3,
   * only set when the product has a brand). It stores a hash of its normalised content, so an
   * unchanged re-import is a read, not a write.
   */
  product: {
    pk: 'WS#{workspaceId}#PRODUCT#{productId}',
    sk: 'PRODUCT',
    gsi1: { pk: 'WS#{workspaceId}#PRODUCTS', sk: '{productId}' },
    gsi3: { pk: 'WS#{workspaceId}#BRAND#{brandId}#PRODUCTS', sk: '{productId}' },
  },
  /** Sku (the merchant's product id, unique per workspace) -> product: the import's upsert key. */
  productSku: { pk: 'WS#{workspaceId}#PRODUCT_SKU#{sku}', sk: 'LOOKUP' },
  /**
   * A product's entry in one of its categories: a copy of the product in the product's partition,
   * indexed per category (gsi2), so a category filter is an index read however many categories a
   * product has. Written and removed in the product's own transaction.
   */
  productCategory: {
    pk: 'WS#{workspaceId}#PRODUCT#{productId}',
    sk: 'CATEGORY#{categoryId}',
    gsi2: { pk: 'WS#{workspaceId}#CATEGORY#{categoryId}#PRODUCTS', sk: '{productId}' },
  },
  /** Categories and brands are few per workspace: in the workspace partition, keyed by their unique key. */
  catalogCategory: { pk: 'WS#{workspaceId}', sk: 'CATEGORY#{key}' },
  catalogBrand: { pk: 'WS#{workspaceId}', sk: 'BRAND#{key}' },

  // --- Coupons (issue 4) ---
  /**
   * A coupon pool in its own partition (its stock counters are a hot item) with the per-member
   * counters of its per-member limit; gsi1 lists the workspace's pools.
   */
  couponPool: { pk: 'WS#{workspaceId}#CPOOL#{poolId}', sk: 'POOL', gsi1: { pk: 'WS#{workspaceId}#CPOOLS', sk: '{poolId}' } },
  couponMemberCount: { pk: 'WS#{workspaceId}#CPOOL#{poolId}', sk: 'MEMBER#{memberId}' },
  /** Part `chunk` of an uploaded code list (99 codes, in upload order); a partition each, so uploads spread. */
  couponPoolCodes: { pk: 'WS#{workspaceId}#CPOOL#{poolId}#CODES#{chunk}', sk: 'CODES' },
  /** A coupon: its own partition; listed by workspace (gsi1), member (gsi2) and pool (gsi3), newest first. */
  coupon: {
    pk: 'WS#{workspaceId}#COUPON#{couponId}',
    sk: 'COUPON',
    gsi1: { pk: 'WS#{workspaceId}#COUPONS', sk: '{couponId}' },
    gsi2: { pk: 'WS#{workspaceId}#MEMBER#{memberId}#COUPONS', sk: '{couponId}' },
    gsi3: { pk: 'WS#{workspaceId}#CPOOL#{poolId}#COUPONS', sk: '{couponId}' },
  },
  /** Code (upper-cased) -> coupon: unique per workspace, O(1) redeem by code; list codes are reserved here at upload. */
  couponCode: { pk: 'WS#{workspaceId}#CPNCODE#{code}', sk: 'LOOKUP' },

  // --- Rewards ---
  /**
   * A reward of the catalog in its own partition (its stock counter is a hot item), beside the
   * per-member counters of its per-member limit; gsi1 lists the workspace's rewards, newest first.
   */
  reward: { pk: 'WS#{workspaceId}#REWARD#{rewardId}', sk: 'REWARD', gsi1: { pk: 'WS#{workspaceId}#REWARDS', sk: '{rewardId}' } },
  rewardMemberCount: { pk: 'WS#{workspaceId}#REWARD#{rewardId}', sk: 'MEMBER#{memberId}' },
  /** A redemption of a reward: its own partition; gsi2 lists a member's redemptions, newest first. */
  redemption: {
    pk: 'WS#{workspaceId}#REDEMPTION#{redemptionId}',
    sk: 'REDEMPTION',
    gsi2: { pk: 'WS#{workspaceId}#MEMBER#{memberId}#REDEMPTIONS', sk: '{redemptionId}' },
    /** Only while it is issued and its reward voids it when its code expires: the due voids, by time. */
    gsi3: { pk: 'WS#{workspaceId}#REDEMPTIONS_DUE', sk: '{voidAt}#{redemptionId}' },
  },

  idempotency: { pk: 'WS#{workspaceId}#IDEM#{key}', sk: 'IDEM' },
  /** A further part of an idempotent answer too large for its record (the record holds the first). */
  idempotencyPart: { pk: 'WS#{workspaceId}#IDEM#{key}', sk: 'PART#{part}' },

  objectType: { pk: 'WS#{workspaceId}', sk: 'OBJTYPE#{type}' },
  /** Live records per value of a counted field (enum, boolean, member_ref): totals without counting. */
  objectCounter: { pk: 'WS#{workspaceId}#OBJCOUNT#{type}', sk: '{field}#{value}' },
  /**
   * A custom-object record: its own partition; listed per type through three GSIs, one per sort
   * order (created, updated, title). A soft delete removes the index keys, so a deleted record
   * leaves every list and count while its data stays.
   */
  objectRecord: {
    pk: 'WS#{workspaceId}#OBJREC#{type}#{recordId}',
    sk: 'RECORD',
    gsi1: { pk: 'WS#{workspaceId}#OBJ#{type}', sk: 'C#{createdAt}#{recordId}' },
    gsi2: { pk: 'WS#{workspaceId}#OBJ#{type}', sk: 'U#{updatedAt}#{recordId}' },
    gsi3: { pk: 'WS#{workspaceId}#OBJ#{type}', sk: 'T#{titleKey}#{recordId}' },
  },
  /**
   * A record's entry under the value one of its indexed fields holds (`value` as JSON), in the
   * record's partition, rewritten in each of the record's transactions: the three GSIs list the
   * records of one (type, field, value) in the record's three orders, so a list filtered by that
   * value reads only its window. It carries a copy of the record's data (unless the record is
   * large: then the record is fetched by key).
   */
  objectRecordValue: {
    pk: 'WS#{workspaceId}#OBJREC#{type}#{recordId}',
    sk: 'VALUE#{field}',
    gsi1: { pk: 'WS#{workspaceId}#OBJV#{type}#{field}#{value}', sk: 'C#{createdAt}#{recordId}' },
    gsi2: { pk: 'WS#{workspaceId}#OBJV#{type}#{field}#{value}', sk: 'U#{updatedAt}#{recordId}' },
    gsi3: { pk: 'WS#{workspaceId}#OBJV#{type}#{field}#{value}', sk: 'T#{titleKey}#{recordId}' },
  },

  webhookEndpoint: { pk: 'WS#{workspaceId}', sk: 'WEBHOOK#{endpointId}' },
  /** One event to one endpoint: state and the raw payload (for replays), in the endpoint's partition. */
  webhookDelivery: {
    pk: 'WS#{workspaceId}#WEBHOOK#{endpointId}',
    sk: 'DELIVERY#{deliveryId}',
    /** Sparse: only a dead delivery carries it, so replaying an endpoint's dead ones reads only those. */
    gsi1: { pk: 'WS#{workspaceId}#WEBHOOK#{endpointId}#DEAD', sk: '{deliveryId}' },
  },
  /** The delivery log: one entry per attempt, newest first by time. */
  webhookAttempt: { pk: 'WS#{workspaceId}#WEBHOOK#{endpointId}', sk: 'ATTEMPT#{at}#{deliveryId}#{attempt}' },
  /**
   * Outbox: one item per transaction, holding the events of that change, written in the same
   * transaction; the table stream carries it on to the webhook fan-out.
   */
  outbox: { pk: 'WS#{workspaceId}#OUTBOX#{batchId}', sk: 'OUTBOX' },

  /**
   * Write-rate guard: one counter per workspace, API key (or `user:<id>` for sessions) and fixed
   * window; `window` names size and start (`1s:<epoch s>`, `10s:<epoch s>`). Expires via TTL.
   */
  rateWindow: { pk: 'WS#{workspaceId}#RATE#{keyId}#{window}', sk: 'RATE' },

  // --- Member tags, captures, ambassador program, tracking (issue 4) ---
  /** One item per (member, tag) in the member's partition, written with the member's `tags` list. */
  memberTag: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'TAG#{tag}' },
  /** Members per tag, moved in the same transaction as every tag/untag: GET /tags is one Query. */
  tagCounter: { pk: 'WS#{workspaceId}#TAGS', sk: 'TAG#{tag}' },
  /** A capture; gsi1 lists a member's captures (data-subject export and erasure find them there). */
  capture: { pk: 'WS#{workspaceId}#CAPTURE#{captureId}', sk: 'CAPTURE', gsi1: { pk: 'WS#{workspaceId}#MEMBER#{memberId}#CAPTURES', sk: '{captureId}' } },
  /** The first capture of one identity + source (hashed) while its dedupe window is open. */
  captureWindow: { pk: 'WS#{workspaceId}#CAPWIN#{fingerprint}', sk: 'CAPWIN' },
  /** Normalised phone -> member, for members a capture created or matched (phone-only matching). */
  capturePhone: { pk: 'WS#{workspaceId}#CAPPHONE#{phone}', sk: 'LOOKUP' },
  /** A member's referral code and referred sign-ups, in the member's partition. */
  ambassador: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'AMBASSADOR' },
  /** Referral code -> member: unique per workspace. */
  referralCode: { pk: 'WS#{workspaceId}#REFCODE#{code}', sk: 'REFCODE' },
  /** Who referred a member (written at sign-up); gsi1 lists the workspace's referred members. */
  referral: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'REFERRED_BY', gsi1: { pk: 'WS#{workspaceId}#REFERRALS', sk: '{memberId}' } },
  /** Workspace counters of the ambassador program (codes issued, referred sign-ups). */
  ambassadorStats: { pk: 'WS#{workspaceId}#AMBASSADOR', sk: 'STATS' },
  /** A tracked event, keyed by the client's event id (the dedupe key); gsi1: a member's timeline. */
  trackedEvent: {
    pk: 'WS#{workspaceId}#TRACK#{eventId}',
    sk: 'EVENT',
    gsi1: { pk: 'WS#{workspaceId}#MEMBER#{memberId}#TRACK', sk: '{occurredAt}#{eventId}' },
  },
  /**
   * The console overview's running totals (members, points issued and redeemed, orders), moved in
   * the transaction of each change; spread over a few shards so concurrent changes rarely clash.
   */
  workspaceFigures: { pk: 'WS#{workspaceId}#FIGURES', sk: 'SHARD#{shard}' },
  /**
   * A workspace's points counters of one local day (issued, redeemed, expired, ... and what expires
   * per month), moved in the transaction of each ledger entry. The shard is in the partition key:
   * a change moves one shard chosen at random, so a busy workspace's writes spread over partitions;
   * a report reads every shard's days.
   */
  pointsDay: { pk: 'WS#{workspaceId}#POINTS#{shard}', sk: 'DAY#{day}' },
  /**
   * A closed month of one shard's points days, folded into one item (its days' counters, and the
   * day-item writes it took), beside the days in the shard's partition: `MONTH#` sorts after every
   * `DAY#`, so one Query reads a shard's days and roll-ups.
   */
  pointsMonth: { pk: 'WS#{workspaceId}#POINTS#{shard}', sk: 'MONTH#{month}' },
  /** Where a workspace's backfill of its points counters from the ledger stands (cut-over, member cursor). */
  pointsBackfill: { pk: 'WS#{workspaceId}', sk: 'POINTS_BACKFILL' },
  /** Accepted events per UTC day and type, moved in the transaction that accepts them. */
  trackCounter: { pk: 'WS#{workspaceId}#TRACKSTATS', sk: '{day}#{type}' },

  // --- Wallet cards ---
  /** A member's pass on one platform (one per member and platform: the serial never changes). */
  walletPass: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'WALLETPASS#{platform}' },
  /** A device registered for updates of a pass (push token), in the member's partition. */
  walletRegistration: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'WALLETREG#{serial}#{deviceHash}' },
  /** The workspace's card branding (colours, logo), one small item. */
  walletBranding: { pk: 'WS#{workspaceId}', sk: 'WALLETBRANDING' },

  // --- Audit trail ---
  /**
   * One audit entry, append-only (written once, never updated), expiring by TTL. The table item sits
   * in a partition per workspace and UTC day, so entries never pile into the workspace partition
   * and one day is one Query. `entryId` is a time-ordered id (`aud_` + ULID), so every index lists
   * newest first by reading backwards, and a time window is a key range: gsi1 is the workspace's
   * whole trail, gsi2 one actor's entries (only actors with an id: anonymous entries are not in
   * it), gsi3 one action's entries.
   */
  auditEntry: {
    pk: 'WS#{workspaceId}#AUDIT#{day}',
    sk: '{entryId}',
    gsi1: { pk: 'WS#{workspaceId}#AUDIT', sk: '{entryId}' },
    gsi2: { pk: 'WS#{workspaceId}#AUDIT_ACTOR#{actorId}', sk: '{entryId}' },
    gsi3: { pk: 'WS#{workspaceId}#AUDIT_ACTION#{action}', sk: '{entryId}' },
  },

  // --- Data exports ---
  /** An export job (workspace archive or operational file): few per workspace, newest first by id. */
  exportJob: { pk: 'WS#{workspaceId}', sk: 'EXPORT#{jobId}' },
  /**
   * The workspace's one pending or running archive job: created with the job by a conditional put
   * (so parallel requests create one job), removed when the job ends or is found past its deadline.
   */
  exportArchiveLock: { pk: 'WS#{workspaceId}', sk: 'EXPORT_ACTIVE' },
  /** The workspace's export-signing secrets (completion notices), current and rotating out. */
  exportSigningSecret: { pk: 'WS#{workspaceId}', sk: 'EXPORT_SIGNING' },
  /** A member's erasure: written once, in the erasure's transaction (its time, and what makes a repeat a no-op). */
  memberErasure: { pk: 'WS#{workspaceId}#MEMBER#{memberId}', sk: 'ERASED' },
  /** An export schedule (few per workspace); `lastPeriod` is the period it last ran, the claim of each run. */
  exportSchedule: { pk: 'WS#{workspaceId}', sk: 'EXPORTSCHED#{scheduleId}' },

  // --- Imports ---
  /** An import job (few per workspace, newest first by id): its file, preview and progress. */
  importJob: { pk: 'WS#{workspaceId}', sk: 'IMPORT#{jobId}' },
  /**
   * One applied row of an import job, put only if absent in the row's own transaction: what makes a
   * re-applied or restarted job skip it, and what its undo reads back. A partition per job.
   */
  importRow: { pk: 'WS#{workspaceId}#IMPORT#{jobId}', sk: 'ROW#{line}' },
  /**
   * A filtered bulk job's members of one chunk, listed once when its apply first begins: what every
   * run of the job applies (each member once, whoever matches the filter later). A partition per job.
   */
  importChunk: { pk: 'WS#{workspaceId}#IMPORT#{jobId}#CHUNKS', sk: 'CHUNK#{chunk}' },

  // Local runtime only (never written in AWS): the stream poller's checkpoints, kept in the table
  // (next to the stream they point into) so a restart loses nothing.
  localStreamCheckpoint: { pk: 'LOCALSTREAM#{shardId}', sk: 'CHECKPOINT', local: true },

  // Credential lookups (global by design, see above).
  loginEmail: { pk: 'EMAIL#{email}', sk: 'EMAIL', global: true },
  apiKeyHash: { pk: 'APIKEY#{keyHash}', sk: 'APIKEY', global: true },
  /**
   * A session, by the hash of its token (how a request finds it); gsi1 lists a user's sessions in
   * their workspace, newest first, so a person sees and ends their own.
   */
  session: {
    pk: 'SESSION#{tokenHash}',
    sk: 'SESSION',
    global: true,
    gsi1: { pk: 'WS#{workspaceId}#USER#{userId}#SESSIONS', sk: '{createdAt}#{tokenHash}' },
  },
  resetToken: { pk: 'RESET#{tokenHash}', sk: 'RESET', global: true },
  /** An invitation's link token (by its SHA-256) -> the workspace and invitation it opens. */
  invitationToken: { pk: 'INVITE#{tokenHash}', sk: 'INVITE', global: true },
  loginThrottle: { pk: 'LOGINFAIL#{emailHash}#{window}', sk: 'LOGINFAIL', global: true },
  /** A sign-in waiting for its two-factor code (by the SHA-256 of its challenge token): short-lived, no session yet. */
  mfaChallenge: { pk: 'MFA#{tokenHash}', sk: 'MFA', global: true },

  // --- Member portal sessions and wallet passes ---
  /** A member portal (consumer) session, by the SHA-256 of its token: names one workspace and member. */
  consumerSession: { pk: 'CSESSION#{tokenHash}', sk: 'CSESSION', global: true },
  /**
   * Apple's pass web service names a pass by serial only, and a device by the id it chose, never the
   * workspace: these two lookups find them. Keyed by the SHA-256 of the serial / device id.
   */
  walletSerial: { pk: 'WALLETSERIAL#{serialHash}', sk: 'WALLETSERIAL', global: true },
  walletDevice: { pk: 'WALLETDEVICE#{deviceHash}', sk: 'REG#{passTypeId}#{serial}', global: true },
  /**
   * The one index the export scheduler's tick reads: a pointer (workspace id, schedule id, nothing
   * else) per export schedule, written and removed in the schedule's own transaction. Global by
   * design like the credential lookups: a scheduled run has no credential to take a workspace
   * from. Nothing here is reachable from the API; the tick reads the schedule itself from its
   * workspace partition.
   */
  exportScheduleIndex: { pk: 'EXPORT_SCHEDULES', sk: '{workspaceId}#{scheduleId}', scheduler: true },
  /**
   * The program engine's index of workspaces that may have due work (points expiry, warnings,
   * pending points): one pointer (the workspace id) per workspace, written when its rules first
   * enable any of them. Global for the same reason as the export schedules' index.
   */
  programDueIndex: { pk: 'PROGRAM_DUE', sk: '{workspaceId}', scheduler: true },

  // --- Cross-origin embed of the consumer routes ---
  /** The origins a workspace allows to call its consumer routes from a browser. */
  corsSettings: { pk: 'WS#{workspaceId}', sk: 'CORS' },
  /**
   * The one index a CORS preflight reads: a preflight carries no credential, so it is answered for
   * an origin that any workspace allows. One pointer (nothing but the workspace id) per allowed
   * origin and workspace, keyed by the SHA-256 of the origin, written in the settings' transaction.
   */
  corsOriginIndex: { pk: 'CORSORIGIN#{originHash}', sk: '{workspaceId}', preflight: true },
} as const satisfies Record<
  string,
  {
    pk: string;
    sk: string;
    global?: true;
    local?: true;
    /** The scheduler's index of due work (see exportScheduleIndex). */
    scheduler?: true;
    /** The CORS preflight's index of allowed origins (see corsOriginIndex). */
    preflight?: true;
    gsi1?: { pk: string; sk: string };
    gsi2?: { pk: string; sk: string };
    gsi3?: { pk: string; sk: string };
  }
>;

export type EntityName = keyof typeof ENTITIES;
export type GsiName = 'gsi1' | 'gsi2' | 'gsi3';

type Placeholders<T extends string> = T extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;
type Layout<E extends EntityName> = (typeof ENTITIES)[E];
type Templates<L> = L extends { pk: infer P extends string; sk: infer S extends string } ? P | S : never;
type GsiTemplates<L> =
  | (L extends { gsi1: infer G } ? Templates<G> : never)
  | (L extends { gsi2: infer G } ? Templates<G> : never)
  | (L extends { gsi3: infer G } ? Templates<G> : never);

export type KeyParams<E extends EntityName> = Record<Placeholders<Templates<Layout<E>>>, string | number>;
export type IndexParams<E extends EntityName> = Record<Placeholders<GsiTemplates<Layout<E>>>, string | number>;

export interface PrimaryKey {
  pk: string;
  sk: string;
}

function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`key part ${name} missing for ${template}`);
    return String(value);
  });
}

export function keyOf<E extends EntityName>(entity: E, params: KeyParams<E>): PrimaryKey {
  const layout = ENTITIES[entity];
  const p = params as Record<string, string | number>;
  return { pk: fill(layout.pk, p), sk: fill(layout.sk, p) };
}

/**
 * GSI key attributes of an entity (`gsi1pk`, `gsi1sk`, ...), to spread into its item; `only` limits
 * them to some GSIs (a sparse index whose parts the item lacks).
 */
export function indexKeysOf<E extends EntityName>(entity: E, params: IndexParams<E>, only?: readonly GsiName[]): Record<string, string> {
  const layout = ENTITIES[entity] as Partial<Record<GsiName, { pk: string; sk: string }>>;
  const p = params as Record<string, string | number>;
  const out: Record<string, string> = {};
  for (const gsi of ['gsi1', 'gsi2', 'gsi3'] as const) {
    const t = only && !only.includes(gsi) ? undefined : layout[gsi];
    if (t) {
      out[`${gsi}pk`] = fill(t.pk, p);
      out[`${gsi}sk`] = fill(t.sk, p);
    }
  }
  return out;
}

/** The partition key of an entity's GSI, for queries. */
export function indexPartition(entity: EntityName, gsi: GsiName, params: Record<string, string | number>): string {
  const t = (ENTITIES[entity] as Partial<Record<GsiName, { pk: string }>>)[gsi];
  if (!t) throw new Error(`${entity} has no ${gsi}`);
  return fill(t.pk, params);
}

/**
 * One GSI sort key of an entity: the attribute and its value, for a write that moves an existing
 * item within that index (the partition stays).
 */
export function indexSortKey(entity: EntityName, gsi: GsiName, params: Record<string, string | number>): { attribute: string; value: string } {
  const t = (ENTITIES[entity] as Partial<Record<GsiName, { sk: string }>>)[gsi];
  if (!t) throw new Error(`${entity} has no ${gsi}`);
  return { attribute: `${gsi}sk`, value: fill(t.sk, params) };
}

/** Every GSI key attribute an entity's items carry; removing them takes an item out of its indexes. */
export function indexKeyAttributes(entity: EntityName): string[] {
  const layout = ENTITIES[entity] as Partial<Record<GsiName, unknown>>;
  return (['gsi1', 'gsi2', 'gsi3'] as const).filter((g) => layout[g]).flatMap((g) => [`${g}pk`, `${g}sk`]);
}

/** The sort-key prefix shared by all items of an entity in one partition (for begins_with queries). */
export function skPrefix(entity: EntityName): string {
  const sk: string = ENTITIES[entity].sk;
  const brace = sk.indexOf('{');
  return brace === -1 ? sk : sk.slice(0, brace);
}

/** Fixed-width decimal, so numeric sequences sort as strings. */
export const seqKey = (n: number): string => String(n).padStart(12, '0');
