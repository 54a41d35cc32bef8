/**
 * The audit trail's entries as the table stores them, and the names they are written in: actions,
 * target types, outcomes and failure reasons. Plain declarations below the domain, so the data
 * layer can name them without importing it; the catalog (what each action targets, when it is
 * written) and the building of entries stay in the audit area.
 */

/** What an entry's `target` can be. */
export const AUDIT_TARGET_TYPES = [
  'workspace',
  'user',
  'apiKey',
  'webhookEndpoint',
  'program',
  'campaign',
  'objectType',
  // The MCP server
  'mcpTool',
  'mcpServer',
  // Data exports
  'exportJob',
  'exportSigningSecret',
  'exportSchedule',
  // Data-subject export and erasure
  'member',
  // The team: invitations to join a workspace
  'invitation',
  // Rewards and their redemptions
  'reward',
  'redemption',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const AUDIT_OUTCOMES = ['success', 'failure'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/**
 * How an MCP call ended, when it did not succeed: a domain error answered as a tool error, refused
 * before the tool ran (the key lacks the tool's scope, or the write-rate guard said no), or invalid
 * (unknown tool or method, arguments the tool's schema refuses).
 */
export const MCP_FAILURE_REASONS = ['tool_error', 'refused', 'invalid'] as const;

/** Why a recorded attempt failed (`outcome: failure`). Short codes, never a message with data in it. */
export const AUDIT_FAILURE_REASONS = ['wrong_password', 'wrong_code', ...MCP_FAILURE_REASONS] as const;
export type AuditFailureReason = (typeof AUDIT_FAILURE_REASONS)[number];

export const AUDIT_ACTIONS = [
  'workspace.created',
  'auth.login',
  'auth.logout',
  'auth.login_failed',
  'auth.session_ended',
  'auth.password_changed',
  'auth.password_reset',
  'auth.email_changed',
  'auth.mfa_enabled',
  'auth.mfa_disabled',
  'workspace.mfa_required',
  'workspace.mfa_not_required',
  'api_key.created',
  'api_key.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.secret_rotated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.dead_deliveries_replayed',
  'program.updated',
  'program.clock_advanced',
  'campaign.created',
  'campaign.updated',
  'campaign.deleted',
  'object_type.created',
  'object_type.updated',
  'mcp.method_called',
  'mcp.tool_called',
  // Wallet cards
  'wallet_branding.updated',
  // Cross-origin embed
  'portal.cors_updated',
  // Data exports
  'export.requested',
  'export.link_issued',
  'export.signing_secret_rotated',
  'export_schedule.created',
  'export_schedule.deleted',
  // Data-subject export and erasure
  'member.personal_data_exported',
  'member.erased',
  // The team: members, roles, invitations
  'team.invited',
  'team.invitation_revoked',
  'team.invitation_accepted',
  'team.role_changed',
  'team.sessions_ended',
  'team.member_removed',
  // Console: members
  'member.points_adjusted',
  'member.ledger_entry_reversed',
  // Rewards
  'reward.created',
  'reward.updated',
  'redemption.voided',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditActor = { type: 'user'; id: string } | { type: 'apiKey'; id: string } | { type: 'anonymous' };

export interface AuditTarget {
  type: AuditTargetType;
  id: string;
}

/**
 * What an MCP call's entry adds: the JSON-RPC method, the tool (for `tools/call`), how long the
 * request took and, for a tool error, the error code of the REST error table. Never an argument.
 */
export interface McpCallDetail {
  method: string;
  tool: string | null;
  durationMs: number;
  errorCode: string | null;
}

/**
 * One changed field of a configuration change: its dotted path and the values either side (absent
 * where the field was absent). Only configuration (rules, campaigns, rewards, settings) is diffed,
 * never a person's data.
 */
export interface AuditChange {
  field: string;
  before?: unknown;
  after?: unknown;
}

export interface AuditEntry {
  /** `aud_...`, time-ordered: it sorts by `occurredAt`. */
  id: string;
  occurredAt: string;
  action: AuditAction;
  outcome: AuditOutcome;
  /** Why a failed attempt failed; null on success. */
  reason: AuditFailureReason | null;
  actor: AuditActor;
  target: AuditTarget;
  requestId: string;
  /** Only on `mcp.*` entries. */
  mcp?: McpCallDetail;
  /** Only on the catalog's configuration changes (`changes: true`): what changed, field by field. */
  changes?: AuditChange[];
}
