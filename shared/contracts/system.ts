import * as z from 'zod';
import { declareArea } from './endpoint';

export const systemArea = declareArea({
  area: 'system',
  access: { table: 'none' },
  endpoints: {
    getOpenApi: {
      method: 'GET', path: '/api/v2/openapi.json', auth: ['public'], summary: 'This API as an OpenAPI 3.1 document',
      responses: { 200: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document') },
      description: 'This document. Public, no credential needed.',
    },
  },
});
