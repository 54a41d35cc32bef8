import type * as z from 'zod';
import type { AuditAction, AuditEntry, AuditTarget, AuditTargetType } from './entities';
import { REDACTED } from './entry';
import type { auditEntrySchema } from './schemas';

/**
 * An entry as people read it: pure. The stored entry holds ids only; who they are (a team member's
 * name and e-mail, a key's name and prefix) is looked up when the trail is read, so a renamed
 * person shows under their name of today, a person who left the team by id alone, and the trail
 * never keeps anyone's personal data (decision 0092). The target gets the console address that
 * shows it.
 */

export type ReadableEntry = z.output<typeof auditEntrySchema>;

export interface UserName {
  name: string | null;
  email: string;
}

export interface KeyName {
  name: string;
  prefix: string;
}

export interface ActorNames {
  users: ReadonlyMap<string, UserName>;
  keys: ReadonlyMap<string, KeyName>;
}

/**
 * The port through which the trail learns who its actors are: the team area answers it (users and
 * keys sit above the audit trail, which may not import them).
 */
export type ActorDirectory = (workspaceId: string, ids: { users: string[]; keys: string[] }) => Promise<ActorNames>;

/** The distinct user and key ids the entries name as actors. */
export function actorIdsOf(entries: readonly AuditEntry[]): { users: string[]; keys: string[] } {
  const users = new Set<string>();
  const keys = new Set<string>();
  for (const { actor } of entries) {
    if (actor.type === 'user') users.add(actor.id);
    else if (actor.type === 'apiKey') keys.add(actor.id);
  }
  return { users: [...users], keys: [...keys] };
}

/** Console pages by the kind of thing (relative to /console); a kind missing here has no page. */
const PAGES: Partial<Record<AuditTargetType, (id: string) => string>> = {
  member: (id) => `/members/${encodeURIComponent(id)}`,
  campaign: (id) => `/program/campaigns/${encodeURIComponent(id)}`,
  program: () => '/program',
  objectType: (key) => `/object-types/${encodeURIComponent(key)}`,
  webhookEndpoint: (id) => `/webhooks/${encodeURIComponent(id)}/deliveries`,
  apiKey: () => '/api-keys',
  user: () => '/team',
  invitation: () => '/team',
  exportJob: () => '/exports',
  exportSchedule: () => '/exports',
  exportSigningSecret: () => '/exports',
};

/** A workspace-wide change: its page is the setting's own. */
const WORKSPACE_PAGES: Partial<Record<AuditAction, string>> = {
  'wallet_branding.updated': '/wallet',
  'program.clock_advanced': '/program',
};

/** Where the console shows what an entry acted on; null where it has no page or the thing is gone. */
export function consoleAddressOf(action: AuditAction, target: AuditTarget): string | null {
  if (action.endsWith('.deleted') || target.id === REDACTED) return null;
  const page = target.type === 'workspace' ? WORKSPACE_PAGES[action] : PAGES[target.type]?.(target.id);
  return page === undefined ? null : `/console${page}`;
}

function readableActor(actor: AuditEntry['actor'], names: ActorNames): ReadableEntry['actor'] {
  switch (actor.type) {
    case 'user': {
      const user = names.users.get(actor.id);
      return { type: 'user', id: actor.id, name: user?.name ?? null, email: user?.email ?? null };
    }
    case 'apiKey': {
      const key = names.keys.get(actor.id);
      return { type: 'apiKey', id: actor.id, name: key?.name ?? null, prefix: key?.prefix ?? null };
    }
    default:
      return { type: 'anonymous' };
  }
}

/** The entry with its actor named and its target's console address. */
export function readable(entry: AuditEntry, names: ActorNames): ReadableEntry {
  return {
    ...entry,
    actor: readableActor(entry.actor, names),
    target: { ...entry.target, href: consoleAddressOf(entry.action, entry.target) },
  };
}
