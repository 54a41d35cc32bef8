import type { Command } from 'commander';

/**
 * The top-level commands' one-line descriptions and the help helpers their modules use. Kept apart
 * from the catalog that loads the modules, so a command's module and the catalog never import each
 * other.
 */
export const DESCRIPTIONS = {
  login: 'sign in and keep the session (7 days) for commands that need one: objects, exports, keys',
  logout: 'forget the stored session of the base URL',
  keys: 'API keys (an admin session, or an API key with api_keys:manage)',
  objects: 'custom object types (owner or admin session)',
  members: 'members (API key with members:read / members:write)',
  points: "change a member's points (API key with members:write)",
  orders: 'orders and their points (API key with orders:read / orders:write)',
  rewards: 'the rewards catalog and redemptions (API key with rewards:read / rewards:manage / rewards:redeem)',
  events: 'the webhook event catalog (API key with webhooks:manage)',
  webhooks: 'webhook endpoints and deliveries (API key with webhooks:manage)',
  trigger: 'send a sample event to your subscribed endpoints (API key with webhooks:manage)',
  exports: 'operational exports of members or orders (owner or admin session)',
  team: 'the users of the workspace, their roles and invitations (owner or admin session)',
  import: 'import jobs: bring members, balances and tiers in from a file, preview, apply, undo (API key with imports:write)',
} as const;

export type CommandName = keyof typeof DESCRIPTIONS;

/** The description of a top-level command, for the module that registers it. */
export const describe = (name: CommandName): string => DESCRIPTIONS[name];

/** Adds an "Examples:" block to a command's help. */
export function examples(cmd: Command, ...lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
