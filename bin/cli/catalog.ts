import type { Command } from 'commander';

/**
 * The top-level commands: name, one-line description and the module that registers it. `loyalty
 * --help` lists them from here without loading any command module (each brings its contracts and
 * schemas); a command's module is imported only when that command runs.
 */
type Registrar = (program: Command) => void;

export const COMMANDS = {
  login: {
    description: 'sign in and keep the session (7 days) for commands that need one: objects, exports, keys',
    load: async (): Promise<Registrar> => (await import('./commands/login')).registerLogin,
  },
  logout: { description: 'forget the stored session of the base URL', load: async (): Promise<Registrar> => (await import('./commands/login')).registerLogin },
  keys: {
    description: 'API keys (an admin session, or an API key with api_keys:manage)',
    load: async (): Promise<Registrar> => (await import('./commands/keys')).registerKeys,
  },
  objects: {
    description: 'custom object types (owner or admin session)',
    load: async (): Promise<Registrar> => (await import('./commands/objects')).registerObjects,
  },
  members: {
    description: 'members (API key with members:read / members:write)',
    load: async (): Promise<Registrar> => (await import('./commands/members')).registerMembers,
  },
  points: {
    description: "change a member's points (API key with members:write)",
    load: async (): Promise<Registrar> => (await import('./commands/members')).registerMembers,
  },
  orders: {
    description: 'orders and their points (API key with orders:read / orders:write)',
    load: async (): Promise<Registrar> => (await import('./commands/orders')).registerOrders,
  },
  events: {
    description: 'the webhook event catalog (API key with webhooks:manage)',
    load: async (): Promise<Registrar> => (await import('./commands/events')).registerEvents,
  },
  webhooks: {
    description: 'webhook endpoints and deliveries (API key with webhooks:manage)',
    load: async (): Promise<Registrar> => (await import('./commands/webhooks')).registerWebhooks,
  },
  trigger: {
    description: 'send a sample event to your subscribed endpoints (API key with webhooks:manage)',
    load: async (): Promise<Registrar> => (await import('./commands/webhooks')).registerWebhooks,
  },
  exports: {
    description: 'operational exports of members or orders (owner or admin session)',
    load: async (): Promise<Registrar> => (await import('./commands/exports')).registerExports,
  },
  team: {
    description: 'the users of the workspace, their roles and invitations (owner or admin session)',
    load: async (): Promise<Registrar> => (await import('./commands/team')).registerTeam,
  },
} as const;

export type CommandName = keyof typeof COMMANDS;

/** The description of a top-level command, for the module that registers it. */
export const describe = (name: CommandName): string => COMMANDS[name].description;

/** Adds an "Examples:" block to a command's help. */
export function examples(cmd: Command, ...lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
