import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../shared/errors';
import { SCOPES } from '../../shared/domain/api-keys/scopes';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README stays true to the code', () => {
  it('lists every error code with its status', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(readme, code).toMatch(new RegExp(`\\| ${status} \\| \`${code}\` \\|`));
    }
  });

  it('lists every scope', () => {
    for (const scope of SCOPES) expect(readme).toContain(`\`${scope}\``);
  });
});
