/**
 * The business metrics, declared once: the code that emits them (EMF through Powertools Metrics),
 * the dashboard's capability rows and their tests all derive from this table. Dimensions stay
 * low-cardinality (an operation id, an outcome class), never a workspace, member or endpoint id:
 * every distinct dimension value is a billed custom metric.
 */
export const METRICS_NAMESPACE = 'LoyaltyPlatform';

/**
 * The `service` dimension of every business metric: one value for the whole platform (not the
 * function's name), so an order recorded through REST and through MCP is one series.
 */
export const METRICS_SERVICE = 'loyalty-platform';

/** The dashboard row a metric belongs to. */
export type Capability = 'api' | 'points-orders' | 'webhooks' | 'wallet' | 'exports' | 'mcp' | 'audit';

export type MetricUnitName = 'Count' | 'Milliseconds';

export interface BusinessMetric {
  readonly name: string;
  readonly unit: MetricUnitName;
  readonly capability: Capability;
  /** Dimension names beyond the service (each with a small, closed set of values). */
  readonly dimensions?: readonly string[];
  readonly description: string;
}

export const businessMetrics = {
  apiRequests: {
    name: 'ApiRequests',
    unit: 'Count',
    capability: 'api',
    dimensions: ['operation', 'outcome'],
    description: 'API requests by operationId and outcome class (2xx, 4xx, 5xx)',
  },
  writeGuardRefusals: {
    name: 'WriteGuardRefusals',
    unit: 'Count',
    capability: 'api',
    description: 'Writes refused by the per-key write-rate guard (429) or its fail-closed 503',
  },
  ordersRecorded: { name: 'OrdersRecorded', unit: 'Count', capability: 'points-orders', description: 'Orders recorded (new externalOrderIds, not replays)' },
  pointsEarned: { name: 'PointsEarned', unit: 'Count', capability: 'points-orders', description: 'Points credited to members (the sum of positive changes)' },
  pointsDeducted: {
    name: 'PointsDeducted',
    unit: 'Count',
    capability: 'points-orders',
    description: 'Points debited from members (the sum of negative changes, as a positive number)',
  },
  refunds: { name: 'Refunds', unit: 'Count', capability: 'points-orders', description: 'Refunds recorded' },
  couponsIssued: { name: 'CouponsIssued', unit: 'Count', capability: 'points-orders', description: 'Coupons issued from a pool' },
  couponsRedeemed: { name: 'CouponsRedeemed', unit: 'Count', capability: 'points-orders', description: 'Coupons redeemed' },
  webhookDeliveriesOk: { name: 'WebhookDeliveriesOk', unit: 'Count', capability: 'webhooks', description: 'Webhook deliveries acknowledged with a 2xx' },
  webhookDeliveriesRetried: {
    name: 'WebhookDeliveriesRetried',
    unit: 'Count',
    capability: 'webhooks',
    description: 'Webhook attempts that failed and were scheduled again',
  },
  webhookDeliveriesFailed: {
    name: 'WebhookDeliveriesFailed',
    unit: 'Count',
    capability: 'webhooks',
    description: 'Webhook deliveries that failed for good (3xx, 4xx other than 429, refused target)',
  },
  webhookDeliveriesDead: {
    name: 'WebhookDeliveriesDead',
    unit: 'Count',
    capability: 'webhooks',
    description: 'Webhook deliveries that ran out of attempts (dead-lettered)',
  },
  webhookDeliveryLatency: {
    name: 'WebhookDeliveryLatency',
    unit: 'Milliseconds',
    capability: 'webhooks',
    description: 'Time from the event to the receiver acknowledging it',
  },
  walletPushesSent: {
    name: 'WalletPushesSent',
    unit: 'Count',
    capability: 'wallet',
    description: 'Wallet update pushes sent (APNs pushes and Google object updates)',
  },
  walletRegistrationsRemoved: {
    name: 'WalletRegistrationsRemoved',
    unit: 'Count',
    capability: 'wallet',
    description: 'Device registrations removed because APNs said the token is gone',
  },
  exportRuns: {
    name: 'ExportRuns',
    unit: 'Count',
    capability: 'exports',
    dimensions: ['outcome'],
    description: 'Export runs finished, by outcome (completed, failed)',
  },
  exportRows: { name: 'ExportRows', unit: 'Count', capability: 'exports', description: 'Rows or records written by export runs' },
  exportDuration: { name: 'ExportDuration', unit: 'Milliseconds', capability: 'exports', description: 'Time from an export request to its completion' },
  mcpCalls: {
    name: 'McpCalls',
    unit: 'Count',
    capability: 'mcp',
    dimensions: ['outcome'],
    description: 'MCP JSON-RPC calls by outcome (ok, tool_error, refused, invalid)',
  },
  auditWrites: { name: 'AuditWrites', unit: 'Count', capability: 'audit', description: 'Audit entries written' },
} as const satisfies Record<string, BusinessMetric>;

export type BusinessMetricKey = keyof typeof businessMetrics;
