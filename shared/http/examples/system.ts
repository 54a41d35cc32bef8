import type { systemArea } from '../../system';
import type { AreaExamples } from './types';

export const systemExamples: AreaExamples<typeof systemArea> = {
  getOpenApi: {
    summary: 'The start of this document',
    responses: {
      200: {
        openapi: '3.1.0',
        info: { title: 'Loyalty platform API', version: '2.0.0' },
        paths: { '/api/v2/members': { get: { operationId: 'listMembers' } } },
      },
    },
  },
  // The page, its scripts and the redirect answer no JSON.
  getReference: { responses: {} },
  getReferenceAsset: { params: { file: 'api-reference.js' }, responses: {} },
  getRoot: { responses: {} },
  getApiIndex: {
    responses: { 200: { data: { reference: 'https://api.example.com/docs', openapi: 'https://api.example.com/api/v2/openapi.json' } } },
  },
};
