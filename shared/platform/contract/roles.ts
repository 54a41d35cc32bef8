/**
 * Who a signed-in user is in the workspace: one role each, stored on the user and carried by the
 * session. What each role may do is declared once beside the permissions (`permissions.ts`), so
 * the list sits below the areas, beside the scopes of API keys.
 */

/**
 * The built-in roles: `owner` and `admin` hold everything (only an owner grants `owner`), the job
 * roles what their job needs, and `member` (the role of the first team releases) nothing.
 */
export const ROLES = ['owner', 'admin', 'marketer', 'support', 'analyst', 'developer', 'member'] as const;
export type Role = (typeof ROLES)[number];

/** The role an invitation offers first (the console's form, the CLI's default): the most common job, and no keys or team. */
export const DEFAULT_INVITED_ROLE: Role = 'support';

/** Each role's job in a few words: what an invitation tells the person it invites. */
export const ROLE_SUMMARIES: Readonly<Record<Role, string>> = {
  owner: 'everything, the team and its owners included',
  admin: 'everything but making owners',
  marketer: 'campaigns, rewards, the program and its reports',
  support: 'finding members and helping them: their history, tags and points within a ceiling, rewards',
  analyst: 'reports, exports and the audit trail, to read',
  developer: 'API keys, webhooks, custom objects and the member portal origins',
  member: 'no console access yet, until an owner or admin gives you a role',
};
