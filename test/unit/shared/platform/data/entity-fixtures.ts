/** One record of each declared type, as the repositories were handed them (the item tests write them both ways). */
export const WS = 'ws_01';
const AT = '2026-03-04T05:06:07.000Z';

export const store = {
  id: 'sto_1',
  name: 'Mitte',
  code: 'B-1',
  address: { line1: 'Rosenthaler Str. 40', line2: null, city: 'Berlin', postalCode: '10178', region: null, country: 'DE' },
  timezone: 'Europe/Berlin',
  currency: 'EUR',
  status: 'active' as const,
  createdAt: AT,
  updatedAt: AT,
};

export const order = {
  id: 'ord_1',
  workspaceId: WS,
  externalOrderId: 'ext-1',
  memberId: 'mbr_1',
  storeId: null,
  currency: 'EUR',
  totalMinor: 5990,
  refundedMinor: 0,
  status: 'completed' as const,
  items: [{ sku: 'MUG', quantity: 2 }],
  earn: { pointsPerUnit: 1, rounding: 'floor' as const },
  earned: 59,
  reversed: 0,
  occurredAt: AT,
  createdAt: AT,
  updatedAt: AT,
  version: 1,
  campaignsEvaluated: true,
};

export const member = {
  id: 'mbr_1',
  workspaceId: WS,
  email: 'ada@example.com',
  externalId: null,
  firstName: 'Ada',
  lastName: null,
  phone: null,
  birthDate: null,
  status: 'active' as const,
  tier: 'bronze',
  balance: 59,
  pending: 0,
  lifetime: 59,
  orderCount: 1,
  customAttributes: { vip: true },
  tags: ['vip'],
  rev: 1,
  version: 1,
  searchText: 'ada@example.com ada',
  createdAt: AT,
  updatedAt: AT,
};

export const ledgerEntry = {
  id: 'ple_1',
  type: 'earn' as const,
  amount: 59,
  balanceAfter: 59,
  reason: null,
  source: { type: 'order' as const, orderId: 'ord_1', externalOrderId: 'ext-1', apiKeyId: null },
  createdAt: AT,
  memberId: 'mbr_1',
  rev: 7,
};

const discount = { type: 'percent' as const, value: 15 };
export const pool = {
  id: 'cpl_1',
  workspaceId: WS,
  name: 'Spring',
  discount,
  codeConfig: { mode: 'generated' as const, prefix: 'SPR', length: 8 },
  stock: 10,
  issued: 1,
  redeemed: 0,
  remaining: 9,
  validFrom: null,
  validUntil: null,
  perMemberLimit: 1,
  pointsCost: null,
  active: true,
  createdAt: AT,
};

export const coupon = {
  id: 'cpn_1',
  workspaceId: WS,
  poolId: 'cpl_1',
  memberId: 'mbr_1',
  code: 'SPR12345',
  status: 'issued' as const,
  discount,
  validFrom: null,
  validUntil: null,
  expiresKey: 'NEVER',
  pointsCost: 0,
  issuedAt: AT,
  redeemedAt: null,
  redemption: null,
};

export const codeLookup = { poolId: 'cpl_1', couponId: 'cpn_1', memberId: 'mbr_1' };

export const objectRecord = {
  id: 'rec_1',
  workspaceId: WS,
  type: 'repair_job',
  data: { title: 'Kettle' },
  search: { title: 'kettle' },
  createdAt: AT,
  updatedAt: AT,
};

export const objectType = {
  workspaceId: WS,
  type: 'repair_job',
  label: 'Repair job',
  description: null,
  fields: [{ key: 'title', type: 'text' as const, required: true }],
  titleField: 'title',
  status: 'published' as const,
  apiVisible: true,
  version: 1,
  createdAt: AT,
  updatedAt: AT,
};

const content = {
  sku: 'MUG-BLK',
  name: 'Mug',
  description: null,
  priceMinor: 1295,
  currency: 'EUR',
  categoryIds: ['cat_1'],
  imageUrl: null,
  url: null,
  attributes: { colour: 'black' },
  status: 'active' as const,
};
const productBase = { ...content, workspaceId: WS, searchText: 'mug-blk mug', contentHash: 'h1', version: 1, createdAt: AT, updatedAt: AT };
export const product = { ...productBase, id: 'prd_1', brandId: 'brd_1' };
export const unbrandedProduct = { ...productBase, id: 'prd_2', brandId: null };

export const category = { id: 'cat_1', key: 'mugs', name: 'Mugs', parentKey: null, createdAt: AT, updatedAt: AT, version: 1 };
export const brand = { id: 'brd_1', key: 'northwind', name: 'Northwind', createdAt: AT, updatedAt: AT, version: 2 };
export const campaign = { id: 'cmp_1', version: 1, name: 'Welcome', status: 'active', trigger: { type: 'member_created' } };

export const endpoint = {
  id: 'whe_1',
  workspaceId: WS,
  url: 'https://example.com/hooks',
  description: '',
  eventTypes: ['order.created'],
  status: 'active' as const,
  disabledReason: null,
  secrets: [{ sealed: 'v1.abc', createdAt: AT, expiresAt: null }],
  createdAt: AT,
  updatedAt: AT,
  version: 1,
};

export const attempt = {
  id: 'wha_1',
  deliveryId: 'dlv_1',
  eventId: 'evt_1',
  eventType: 'order.created',
  attempt: 2,
  trigger: 'event' as const,
  statusCode: 500,
  error: null,
  durationMs: 120,
  responseExcerpt: 'oops',
  nextRetryAt: AT,
  state: 'retrying' as const,
  at: AT,
  requestId: 'req_1',
};

export const exportJob = {
  id: 'exp_1',
  workspaceId: WS,
  kind: 'operational' as const,
  status: 'pending' as const,
  rowCount: null,
  createdAt: AT,
  startedAt: null,
  completedAt: null,
  error: null,
  deadlineAt: 1_800_000_000,
  objectKey: null,
  dataset: 'members' as const,
  format: 'csv' as const,
  capped: null,
  webhookUrl: null,
};

export const exportSchedule = {
  id: 'exs_1',
  workspaceId: WS,
  dataset: 'orders' as const,
  format: 'jsonl' as const,
  frequency: 'weekly' as const,
  weekday: 'monday' as const,
  hour: 6,
  timezone: 'Europe/Berlin',
  webhookUrl: null,
  firstPeriod: '2026-03-09',
  lastPeriod: null,
  lastJobId: null,
  createdBy: 'usr_1',
  createdAt: AT,
};

export const workspace = { id: WS, name: 'Northwind', createdAt: AT, sandbox: true };
export const user = {
  id: 'usr_1',
  workspaceId: WS,
  email: 'owner@example.com',
  name: null,
  role: 'owner' as const,
  createdAt: AT,
  updatedAt: AT,
  passwordHash: 'scrypt$x',
  sessionGeneration: 0,
  version: 1,
};
export const session = {
  tokenHash: 'th1',
  workspaceId: WS,
  userId: 'usr_1',
  generation: 0,
  createdAt: AT,
  expiresAt: 1_800_000_000,
  browser: { csrfToken: 'c', lastSeenAt: 1 },
};
export const resetToken = { tokenHash: 'rt1', workspaceId: WS, userId: 'usr_1', expiresAt: 1_800_000_000, credentialsVersion: 2 };
export const invitation = {
  id: 'inv_1',
  email: 'new@example.com',
  role: 'member' as const,
  status: 'pending' as const,
  invitedBy: 'usr_1',
  createdAt: AT,
  expiresAt: AT,
  acceptedAt: null,
  revokedAt: null,
  userId: null,
  workspaceId: WS,
};
export const invitationToken = { tokenHash: 'it1', workspaceId: WS, invitationId: 'inv_1', expiresAt: 1_800_000_000 };

export const walletPass = {
  workspaceId: WS,
  memberId: 'mbr_1',
  platform: 'apple' as const,
  serial: 'ser_1',
  authTokenHashes: ['a1'],
  contentHash: 'c1',
  lastModified: 1_772_600_767_000,
  createdAt: AT,
};
export const walletSerial = { serial: 'ser_1', workspaceId: WS, memberId: 'mbr_1', platform: 'apple' as const };
export const walletRegistration = {
  workspaceId: WS,
  memberId: 'mbr_1',
  serial: 'ser_1',
  passTypeId: 'pass.example',
  deviceId: 'dev-1',
  deviceHash: 'dh1',
  pushToken: 'pt1',
  createdAt: AT,
};
export const walletBranding = { backgroundColor: '#000000', foregroundColor: null, labelColor: null, logoPng: null, updatedAt: AT };
