import { config } from '../platform/config';
import * as repo from './repository';
import { audited, diffOf, type AuditContext } from '../audit';
import { TtlCache } from '../platform/cache';
import { refuseOversized } from '../platform/data/stored-size';
import { conflict } from '../platform/errors';
import { DEFAULT_RULES, type Program, type ProgramRules } from './schemas';

/**
 * Rules are read on every order and points change, so each process keeps them for
 * `config.caches.programRulesMs` (5 s). A change therefore applies everywhere within that time
 * (documented); the process that made the change sees it at once.
 */
const cache = new TtlCache<Program>(config.caches.programRulesMs, config.caches.maxEntries);

const defaults = (): Program => ({ ...structuredClone(DEFAULT_RULES), version: 0, updatedAt: null });

/** Rules stored before tier windows existed read as today's behaviour: lifetime, no retention, to the qualified tier. */
const withTierDefaults = (p: Program): Program => {
  const { metric: _m, levels: _l, ...policy } = DEFAULT_RULES.tiers;
  return { ...p, tiers: { ...policy, ...(p.tiers as Partial<Program['tiers']>), metric: p.tiers.metric, levels: p.tiers.levels } };
};

export async function getProgram(workspaceId: string): Promise<Program> {
  return cache.load(workspaceId, async () => withDefaults(await repo.getProgram(workspaceId)));
}

/** Earn rules stored before bases, exclusions and caps existed earn as they did: on the total, everything, uncapped. */
const withEarnDefaults = (p: Program): Program => ({ ...p, earn: { ...DEFAULT_RULES.earn, ...p.earn } });

/** Rules stored before points, time zones, tier windows and order times existed: no expiry, no pending time, UTC, lifetime tiers, the default backdating limit. */
const withDefaults = (stored: repo.StoredProgram | undefined): Program =>
  stored ? withEarnDefaults(withTierDefaults({ ...defaults(), ...stored })) : defaults();

export async function rulesOf(workspaceId: string): Promise<ProgramRules> {
  const { earn, tiers, points, orders, timeZone, pointValue } = await getProgram(workspaceId);
  return { earn, tiers, points, orders, timeZone, pointValue };
}

/** Rules under which something falls due with time: points that age, or tiers that can drop without activity. */
const hasDueWork = (p: Program): boolean =>
  p.points.expiry.policy !== 'none' || p.points.pendingDays > 0 || p.tiers.window !== 'lifetime' || p.tiers.retainDays > 0 || p.tiers.downgrade === 'one_level';

/** A replacement of the rules; points and time zone left out take their defaults (a PUT replaces the whole). */
export type ProgramInput = Omit<ProgramRules, 'points' | 'orders' | 'timeZone' | 'pointValue'> &
  Partial<Pick<ProgramRules, 'points' | 'orders' | 'timeZone' | 'pointValue'>> & { version?: number };

export async function putProgram(workspaceId: string, input: ProgramInput, audit: AuditContext, now = new Date()): Promise<Program> {
  cache.invalidate(workspaceId);
  const current = withDefaults(await repo.getProgram(workspaceId));
  if (input.version !== undefined && input.version !== current.version) {
    throw conflict(`The program is at version ${current.version}, not ${input.version}; read it again and retry`);
  }
  const next: Program = {
    earn: input.earn,
    tiers: input.tiers,
    points: input.points ?? DEFAULT_RULES.points,
    orders: input.orders ?? DEFAULT_RULES.orders,
    timeZone: input.timeZone ?? DEFAULT_RULES.timeZone,
    pointValue: input.pointValue ?? DEFAULT_RULES.pointValue,
    version: current.version + 1,
    updatedAt: now.toISOString(),
  };
  refuseOversized(next, 'programRules');
  await repo.putProgram(workspaceId, next, current.version, [
    audited(workspaceId, audit, 'program.updated', { type: 'program', id: workspaceId }, now, diffOf(current, next)),
    // Due work puts the workspace on the due-work run's list (and keeps it there: earned lots keep their dates, reviews stay due).
    ...(hasDueWork(next) ? [repo.dueWorkspaceStep(workspaceId)] : []),
  ]);
  cache.set(workspaceId, next);
  return next;
}
