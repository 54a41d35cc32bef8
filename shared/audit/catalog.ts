/**
 * THE catalog of the audit trail: for every action the platform records, the kind of thing it acts
 * on and when it is written. Action names are `<subject>.<past-tense verb>` in snake_case
 * (`auth.login` and `auth.login_failed` name the attempt); nothing outside this catalog is ever
 * written, and `GET /api/flash/audit?action=` accepts exactly these names. The names themselves,
 * with the target types, outcomes and failure reasons, are listed with the stored entry
 * (records/audit.ts), since every entry is written in them.
 */
import type { AuditAction, AuditOutcome, AuditTargetType } from './entities';

/** Who can act: a signed-in user, an API key, or someone who proved nothing (a failed login). */
export const AUDIT_ACTOR_TYPES = ['user', 'apiKey', 'anonymous'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export interface AuditActionInfo {
  /** The kind of `target` every entry of this action names. */
  target: AuditTargetType;
  /** `failure` only for actions that record a refused attempt; `either` for MCP calls (a reason says why one failed). */
  outcome: AuditOutcome | 'either';
  /** When it is written (for the documentation). */
  when: string;
  /** A configuration change whose entry carries what changed, field by field (`changes`); no other action may. */
  changes?: true;
}

export const AUDIT_CATALOG: Readonly<Record<AuditAction, AuditActionInfo>> = {
  'workspace.created': { target: 'workspace', outcome: 'success', when: 'A workspace was registered (actor: its owner)' },
  'auth.login': { target: 'user', outcome: 'success', when: 'A user signed in (actor and target: the user)' },
  'auth.logout': { target: 'user', outcome: 'success', when: 'A user signed out: the session is revoked (actor and target: the user)' },
  'auth.login_failed': {
    target: 'user',
    outcome: 'failure',
    when: 'A login for an existing account was refused for a wrong password or a wrong two-factor code (actor: anonymous; target: the account; reason `wrong_password` or `wrong_code`)',
  },
  'auth.session_ended': {
    target: 'user',
    outcome: 'success',
    when: 'A user ended one of their own sessions (another device or token): it is refused from then on',
  },
  'auth.password_changed': { target: 'user', outcome: 'success', when: 'A user changed their password' },
  'auth.password_reset': { target: 'user', outcome: 'success', when: 'A password was set with a reset token (actor: the user the token belongs to)' },
  'auth.email_changed': { target: 'user', outcome: 'success', when: 'A user changed their login e-mail (never the address itself)' },
  'auth.mfa_enabled': { target: 'user', outcome: 'success', when: 'A user turned two-factor sign-in on (confirmed an authenticator app with a code)' },
  'auth.mfa_disabled': { target: 'user', outcome: 'success', when: 'A user turned two-factor sign-in off (with a current code or their password)' },
  'workspace.mfa_required': {
    target: 'workspace',
    outcome: 'success',
    when: 'An owner or admin required two-factor sign-in of every user (target id: the workspace id)',
  },
  'workspace.mfa_not_required': {
    target: 'workspace',
    outcome: 'success',
    when: 'An owner or admin stopped requiring two-factor sign-in (target id: the workspace id)',
  },
  'api_key.created': { target: 'apiKey', outcome: 'success', when: 'An API key was created' },
  'api_key.revoked': { target: 'apiKey', outcome: 'success', when: 'An API key was revoked' },
  'webhook_endpoint.created': { target: 'webhookEndpoint', outcome: 'success', when: 'A webhook endpoint was created' },
  'webhook_endpoint.updated': { target: 'webhookEndpoint', outcome: 'success', when: 'A webhook endpoint’s url, description, event types or status changed' },
  'webhook_endpoint.secret_rotated': { target: 'webhookEndpoint', outcome: 'success', when: 'A webhook endpoint’s signing secret was rotated' },
  'webhook_endpoint.deleted': { target: 'webhookEndpoint', outcome: 'success', when: 'A webhook endpoint was deleted' },
  'webhook_endpoint.dead_deliveries_replayed': {
    target: 'webhookEndpoint',
    outcome: 'success',
    when: 'Dead deliveries of a webhook endpoint were queued again in bulk (one entry per call that queued any)',
  },
  'program.updated': { target: 'program', outcome: 'success', changes: true, when: 'The loyalty program rules were replaced (target id: the workspace id)' },
  'program.clock_advanced': {
    target: 'workspace',
    outcome: 'success',
    when: 'A sandbox workspace’s program clock was moved ahead (target id: the workspace id); what fell due ran with it',
  },
  'campaign.created': { target: 'campaign', outcome: 'success', changes: true, when: 'A campaign was defined' },
  'campaign.updated': { target: 'campaign', outcome: 'success', changes: true, when: 'A campaign’s definition or status changed' },
  'campaign.deleted': { target: 'campaign', outcome: 'success', when: 'A campaign was deleted (its grants stay in the ledger)' },
  'object_type.created': { target: 'objectType', outcome: 'success', when: 'A custom object type was defined (target id: the type key)' },
  'object_type.updated': { target: 'objectType', outcome: 'success', when: 'A custom object type definition was replaced' },
  // The MCP server audits every JSON-RPC call at its transport, refused ones included.
  'mcp.method_called': {
    target: 'mcpServer',
    outcome: 'either',
    when: 'An MCP JSON-RPC call other than a tool call (initialize, tools/list, resources/read...) was answered (target id: the workspace id)',
  },
  'mcp.tool_called': {
    target: 'mcpTool',
    outcome: 'either',
    when: 'An MCP tool was called, whether it ran, failed with a domain error or was refused (target id: the tool name)',
  },
  'wallet_branding.updated': {
    target: 'workspace',
    outcome: 'success',
    when: "The wallet cards' branding (colours, logo) was replaced (target id: the workspace id)",
  },
  'portal.cors_updated': {
    target: 'workspace',
    outcome: 'success',
    changes: true,
    when: 'The origins allowed to call the consumer routes from a browser were replaced (target id: the workspace id)',
  },
  // Data exports
  'export.requested': {
    target: 'exportJob',
    outcome: 'success',
    when: 'A workspace archive or operational export was requested (also when the request returned the archive job already under way)',
  },
  'export.link_issued': { target: 'exportJob', outcome: 'success', when: 'A download link of a completed export was issued' },
  'export.signing_secret_rotated': {
    target: 'exportSigningSecret',
    outcome: 'success',
    when: 'The export-signing secret was created or rotated (target id: the workspace id)',
  },
  'export_schedule.created': {
    target: 'exportSchedule',
    outcome: 'success',
    when: 'An export schedule was created (its runs are recorded as export.requested by its creator)',
  },
  'export_schedule.deleted': { target: 'exportSchedule', outcome: 'success', when: 'An export schedule was deleted' },
  // Data-subject export and erasure
  'member.personal_data_exported': {
    target: 'member',
    outcome: 'success',
    when: "A member's personal data was exported (GET /api/v2/members/{id}/personal-data)",
  },
  'member.erased': { target: 'member', outcome: 'success', when: "A member's personal data was erased (once; a repeated erasure records nothing)" },
  // The team: members, roles, invitations
  'team.invited': {
    target: 'invitation',
    outcome: 'success',
    when: 'An owner or admin invited an e-mail address to the team with a role (never the address itself)',
  },
  'team.invitation_revoked': { target: 'invitation', outcome: 'success', when: 'An invitation was revoked before it was accepted: its link no longer works' },
  'team.invitation_accepted': {
    target: 'invitation',
    outcome: 'success',
    when: 'An invitation was accepted: its user was created with the invited role (actor: the new user)',
  },
  'team.role_changed': { target: 'user', outcome: 'success', changes: true, when: "A team member's role was changed" },
  'team.sessions_ended': { target: 'user', outcome: 'success', when: 'An owner ended every session of a team member: each is refused from then on' },
  'team.member_removed': { target: 'user', outcome: 'success', when: 'A team member was removed: their login and every session of theirs end' },
  // Console: members
  'member.points_adjusted': {
    target: 'member',
    outcome: 'success',
    when: "A member's points were earned, deducted or corrected by hand with a reason: by a user in the console or an API key (REST or MCP)",
  },
  'member.ledger_entry_reversed': {
    target: 'member',
    outcome: 'success',
    when: 'A ledger entry of the member was reversed by a correction (an API key or a user in the console)',
  },
  'reward.created': { target: 'reward', outcome: 'success', changes: true, when: 'A reward was added to the catalog' },
  'reward.updated': { target: 'reward', outcome: 'success', changes: true, when: 'A reward’s definition, stock or status changed' },
  'redemption.voided': {
    target: 'redemption',
    outcome: 'success',
    when: 'A redemption was voided: its points given back, its coupon voided, its stock returned',
  },
};
