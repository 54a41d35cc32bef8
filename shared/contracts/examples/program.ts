import type { programArea } from '../program';
import type { AreaExamples } from './types';
import { at, program } from './world';

export const programExamples: AreaExamples<typeof programArea> = {
  getProgram: { responses: { 200: { data: program } } },
  putProgram: {
    summary: 'Add a Platinum tier, only if nobody changed the rules since version 3',
    request: {
      earn: { pointsPerUnit: 1, rounding: 'floor', currencyOverrides: { CHF: 0.9 } },
      tiers: { metric: 'lifetime_points', levels: [...program.tiers.levels, { key: 'platinum', name: 'Platinum', threshold: 5000 }] },
      version: 3,
    },
    responses: {
      200: { data: { ...program, tiers: { ...program.tiers, levels: [...program.tiers.levels, { key: 'platinum', name: 'Platinum', threshold: 5000 }] }, version: 4, updatedAt: at.now } },
    },
  },
};
