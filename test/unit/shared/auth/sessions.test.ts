import { describe, expect, it } from 'vitest';
import { sessionEndsAt, sessionIdOf } from '../../../../shared/auth/service';
import { config } from '../../../../shared/platform/config';
import { sha256Hex } from '../../../../shared/platform/tokens';

/** What a person is shown of a session: an id that does not give its hash away, and when it really ends. */
describe('sessions as listed', () => {
  it('a console session ends at its idle end when that comes first, else at its absolute end; a bearer token at its end', () => {
    const idle = config.browserSession.idleSeconds;
    expect(sessionEndsAt({ expiresAt: 10_000, browser: { csrfToken: 'x', lastSeenAt: 1_000 } })).toBe(1_000 + idle);
    expect(sessionEndsAt({ expiresAt: 1_000 + idle - 1, browser: { csrfToken: 'x', lastSeenAt: 1_000 } })).toBe(1_000 + idle - 1);
    expect(sessionEndsAt({ expiresAt: 10_000 })).toBe(10_000);
  });

  it('an id is stable for a session, differs between sessions, and holds neither the hash nor a part of it', () => {
    const hash = sha256Hex('fl_sess_a');
    const id = sessionIdOf(hash);
    expect(id).toMatch(/^ses_[0-9a-f]{26}$/);
    expect(sessionIdOf(hash)).toBe(id);
    expect(sessionIdOf(sha256Hex('fl_sess_b'))).not.toBe(id);
    expect(hash).not.toContain(id.slice(4, 14));
  });
});
