import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateClientTypes, SCHEMA_FILE } from '../../../../../infra/build/docs/client-types';

describe('the typed client (shared/client)', () => {
  // The types are committed so the CLI and any program type-check without a generator run; they
  // must be what openapi-typescript makes of the document the contracts build today.
  it('has the types openapi-typescript generates from the current OpenAPI document (else: npm run client:types)', () => {
    expect(readFileSync(SCHEMA_FILE, 'utf8') === generateClientTypes(), `${SCHEMA_FILE} is stale: run npm run client:types`).toBe(true);
  }, 180_000);
});
