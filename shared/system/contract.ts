import * as z from 'zod';
import { OPENAPI_PATH, REFERENCE_PATH } from '../platform/contract/reference';
import { dataOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

export const systemArea = declareArea({
  area: 'system',
  description: "The platform's own documents: this reference page, the OpenAPI document it renders and the index of the base path. Public, no credential.",
  access: { table: 'none' },
  endpoints: {
    getOpenApi: {
      method: 'GET',
      path: OPENAPI_PATH,
      auth: ['public'],
      summary: 'This API as an OpenAPI 3.1 document',
      responses: { 200: z.record(z.string(), z.unknown()).describe('An OpenAPI 3.1 document') },
      description: 'This document. Public, no credential needed. Its `servers` entry is the origin it was fetched from.',
    },
    getReference: {
      method: 'GET',
      path: REFERENCE_PATH,
      auth: ['public'],
      summary: 'The API reference page (HTML)',
      responses: { 200: null },
      binaryResponses: { 200: 'text/html' },
      description: 'This document, rendered for reading in a browser, with search and a request console. Works offline: every asset comes from the platform.',
    },
    getReferenceAsset: {
      method: 'GET',
      path: `${REFERENCE_PATH}/assets/{file}`,
      auth: ['public'],
      summary: 'A script of the API reference page',
      params: z.object({ file: z.string().min(1).max(64).describe('`api-reference.js` (the renderer) or `reference.js` (its settings)') }),
      responses: { 200: null },
      binaryResponses: { 200: 'text/javascript' },
      description: 'Gzipped when the request accepts it. Any other file is 404.',
    },
    getRoot: {
      method: 'GET',
      path: '/',
      auth: ['public'],
      summary: 'Redirects to the API reference page',
      responses: { 302: null },
      description: `A 302 to \`${REFERENCE_PATH}\`.`,
    },
    getApiIndex: {
      method: 'GET',
      path: '/api/v2',
      auth: ['public'],
      summary: 'Where the reference page and the OpenAPI document are',
      responses: {
        200: dataOf(
          z.object({
            reference: z.string().describe('The API reference page'),
            openapi: z.string().describe('The OpenAPI 3.1 document'),
          }),
        ).describe('Links to the reference (absolute when the request named a host)'),
      },
      description: 'The base path of the API answers with links to its documentation; `/api/v2/` (trailing slash) answers the same.',
    },
  },
});
