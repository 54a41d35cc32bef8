import { programSchema, putProgramBody } from '../domain/program/schemas';
import { contract, dataOf } from './contract';

export const programContract = contract({
  'GET /api/flash/program': { responses: { 200: dataOf(programSchema) } },
  'PUT /api/flash/program': {
    body: putProgramBody,
    responses: { 200: dataOf(programSchema) },
    description: 'Replaces the rules. Applies to what happens next: orders keep the earn rate they were recorded with, and tiers are recomputed at each member’s next points change.',
  },
});
