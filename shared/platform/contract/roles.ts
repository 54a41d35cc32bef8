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
