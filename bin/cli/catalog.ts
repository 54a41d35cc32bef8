import type { Command } from 'commander';
import { DESCRIPTIONS } from './help';

export type { CommandName } from './help';

/**
 * The top-level commands: name, one-line description and the module that registers it. `loyalty
 * --help` lists them from here without loading any command module (each brings its contracts and
 * schemas); a command's module is imported only when that command runs.
 */
type Registrar = (program: Command) => void;

export const COMMANDS = {
  login: {
    description: DESCRIPTIONS.login,
    load: async (): Promise<Registrar> => (await import('./commands/login')).registerLogin,
  },
  logout: { description: DESCRIPTIONS.logout, load: async (): Promise<Registrar> => (await import('./commands/login')).registerLogin },
  keys: {
    description: DESCRIPTIONS.keys,
    load: async (): Promise<Registrar> => (await import('./commands/keys')).registerKeys,
  },
  objects: {
    description: DESCRIPTIONS.objects,
    load: async (): Promise<Registrar> => (await import('./commands/objects')).registerObjects,
  },
  members: {
    description: DESCRIPTIONS.members,
    load: async (): Promise<Registrar> => (await import('./commands/members')).registerMembers,
  },
  points: {
    description: DESCRIPTIONS.points,
    load: async (): Promise<Registrar> => (await import('./commands/members')).registerMembers,
  },
  orders: {
    description: DESCRIPTIONS.orders,
    load: async (): Promise<Registrar> => (await import('./commands/orders')).registerOrders,
  },
  rewards: {
    description: DESCRIPTIONS.rewards,
    load: async (): Promise<Registrar> => (await import('./commands/rewards')).registerRewards,
  },
  events: {
    description: DESCRIPTIONS.events,
    load: async (): Promise<Registrar> => (await import('./commands/events')).registerEvents,
  },
  webhooks: {
    description: DESCRIPTIONS.webhooks,
    load: async (): Promise<Registrar> => (await import('./commands/webhooks')).registerWebhooks,
  },
  trigger: {
    description: DESCRIPTIONS.trigger,
    load: async (): Promise<Registrar> => (await import('./commands/webhooks')).registerWebhooks,
  },
  exports: {
    description: DESCRIPTIONS.exports,
    load: async (): Promise<Registrar> => (await import('./commands/exports')).registerExports,
  },
  team: {
    description: DESCRIPTIONS.team,
    load: async (): Promise<Registrar> => (await import('./commands/team')).registerTeam,
  },
  import: {
    description: DESCRIPTIONS.import,
    load: async (): Promise<Registrar> => (await import('./commands/imports')).registerImports,
  },
} as const;
