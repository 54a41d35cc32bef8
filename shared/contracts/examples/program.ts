import type { programArea } from '../program';
import type { AreaExamples } from './types';
import { program } from './world';

export const programExamples: AreaExamples<typeof programArea> = {
  getProgram: { responses: { 200: { data: program } } },
  putProgram: {
    summary: 'Replace the default rules: francs earn 0.9 points, three tiers (only while version 0, the defaults, still applies)',
    request: { earn: program.earn, tiers: program.tiers, version: 0 },
    responses: { 200: { data: program } },
  },
};
