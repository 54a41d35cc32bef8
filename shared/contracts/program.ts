import { programSchema, putProgramBody } from '../domain/program/schemas';
import { dataOf } from './contract';
import { declareArea } from './endpoint';

export const programArea = declareArea({
  area: 'program',
  description: "The loyalty program's rules of a workspace: how points are earned and the tiers members climb.",
  access: { table: 'readWrite' },
  endpoints: {
    getProgram: {
      method: 'GET',
      path: '/api/flash/program',
      auth: ['adminSession'],
      summary: 'The workspace loyalty program rules',
      responses: { 200: dataOf(programSchema) },
    },
    putProgram: {
      method: 'PUT',
      path: '/api/flash/program',
      auth: ['adminSession'],
      summary: 'Replace the loyalty program rules',
      body: putProgramBody,
      responses: { 200: dataOf(programSchema) },
      description:
        'Replaces the rules. Applies to what happens next: orders keep the earn rate they were recorded with, and tiers are recomputed at each member’s next points change.',
    },
  },
});
