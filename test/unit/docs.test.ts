import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/platform/errors';
import { SCOPES } from '../../shared/platform/contract/scopes';

// The reference page the README links to (docs/api.md) holds the error table and the scopes.
const readme = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

describe('the API reference (docs/api.md) stays true to the code', () => {
  it('lists every error code with its status', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(readme, code).toMatch(new RegExp(`\\| ${status} \\| \`${code}\` \\|`));
    }
  });

  it('lists every scope', () => {
    for (const scope of SCOPES) expect(readme).toContain(`\`${scope}\``);
  });
});
