import type { programArea } from '../../program';
import type { AreaExamples } from './types';
import { program } from './world';

export const programExamples: AreaExamples<typeof programArea> = {
  getProgram: { responses: { 200: { data: program } } },
  putProgram: {
    summary:
      'Replace the default rules: francs earn 0.9 points, three tiers, points expire at the end of the month a year after the earn (warned 30 and 7 days before) (only while version 0, the defaults, still applies)',
    request: {
      earn: program.earn,
      tiers: program.tiers,
      points: program.points,
      orders: program.orders,
      timeZone: program.timeZone,
      pointValue: program.pointValue,
      version: 0,
    },
    responses: { 200: { data: program } },
  },
  getClock: { responses: { 200: { data: { now: '2027-03-20T10:00:00.000Z' } } } },
  advanceClock: {
    summary: 'A sandbox moves 30 days ahead: what fell due meanwhile (activations, warnings, expiries) has run when it answers',
    request: { days: 30 },
    responses: { 200: { data: { now: '2027-04-19T10:00:00.000Z' } } },
  },
};
