import { config } from '../../config';
import * as repo from '../../data/repositories/program';
import { audited, type AuditContext } from '../audit/service';
import { TtlCache } from '../cache';
import { conflict } from '../../errors';
import { DEFAULT_RULES, type Program, type ProgramRules } from './schemas';

/**
 * Rules are read on every order and points change, so each process keeps them for
 * `config.caches.programRulesMs` (5 s). A change therefore applies everywhere within that time
 * (documented); the process that made the change sees it at once.
 */
const cache = new TtlCache<Program>(config.caches.programRulesMs, config.caches.maxEntries);

const defaults = (): Program => ({ ...structuredClone(DEFAULT_RULES), version: 0, updatedAt: null });

export async function getProgram(workspaceId: string): Promise<Program> {
  return cache.load(workspaceId, async () => (await repo.getProgram(workspaceId)) ?? defaults());
}

export async function rulesOf(workspaceId: string): Promise<ProgramRules> {
  const { earn, tiers } = await getProgram(workspaceId);
  return { earn, tiers };
}

export async function putProgram(workspaceId: string, input: ProgramRules & { version?: number }, audit: AuditContext, now = new Date()): Promise<Program> {
  cache.invalidate(workspaceId);
  const current = (await repo.getProgram(workspaceId)) ?? defaults();
  if (input.version !== undefined && input.version !== current.version) {
    throw conflict(`The program is at version ${current.version}, not ${input.version}; read it again and retry`);
  }
  const next: Program = { earn: input.earn, tiers: input.tiers, version: current.version + 1, updatedAt: now.toISOString() };
  await repo.putProgram(workspaceId, next, current.version, [audited(workspaceId, audit, 'program.updated', { type: 'program', id: workspaceId }, now)]);
  cache.set(workspaceId, next);
  return next;
}
