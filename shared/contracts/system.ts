import { z } from 'zod';
import { contract } from './contract';

export const systemContract = contract({
  'GET /api/v2/openapi.json': {
    responses: { 200: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document') },
    description: 'This document. Public, no credential needed.',
  },
});
