import { advanceClockBody, clockSchema } from './clock-schemas';
import { programSchema, putProgramBody } from './schemas';
import { dataOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

export const programArea = declareArea({
  area: 'program',
  description: "The loyalty program's rules of a workspace: how points are earned, the tiers members climb, and the program clock of a sandbox.",
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    getProgram: {
      method: 'GET',
      path: '/api/flash/program',
      auth: ['adminSession'],
      permission: 'program:read',
      summary: 'The workspace loyalty program rules',
      responses: { 200: dataOf(programSchema) },
    },
    putProgram: {
      method: 'PUT',
      path: '/api/flash/program',
      auth: ['adminSession'],
      permission: 'program:manage',
      summary: 'Replace the loyalty program rules',
      body: putProgramBody,
      responses: { 200: dataOf(programSchema) },
      description:
        'Replaces the rules. Applies to what happens next: orders keep the earn rate they were recorded with, and tiers are evaluated with the new ladder, window and retention at each member’s next points change or due tier review; a retention already granted keeps its end.',
    },
    getClock: {
      method: 'GET',
      path: '/api/flash/clock',
      auth: ['adminSession'],
      permission: 'program:read',
      summary: "A sandbox workspace's program clock",
      responses: { 200: dataOf(clockSchema) },
      description: 'The time every program rule of the sandbox reads. A live workspace runs on real time: 409.',
    },
    advanceClock: {
      method: 'POST',
      path: '/api/flash/clock/advance',
      auth: ['adminSession'],
      permission: 'clock:advance',
      summary: "Move a sandbox workspace's program clock ahead",
      idempotent: true,
      body: advanceClockBody,
      responses: { 200: dataOf(clockSchema) },
      description:
        'Moves the clock `days` ahead (never back) and answers once everything that fell due meanwhile has run: pending points activated, expiry warnings sent, points expired (each at its own time, in order). A live workspace: 409. Audited as `program.clock_advanced`.',
    },
  },
});
