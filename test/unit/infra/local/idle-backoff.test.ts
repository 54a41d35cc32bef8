import { describe, expect, it } from 'vitest';
import { idleBackoff } from '../../../../infra/local/queue-signal';

describe('idleBackoff', () => {
  it('doubles the idle sleep up to its ceiling and starts over after work', () => {
    const b = idleBackoff(100, 1000);
    expect([b.idle(), b.idle(), b.idle(), b.idle(), b.idle(), b.idle()]).toEqual([100, 200, 400, 800, 1000, 1000]);
    b.busy();
    expect(b.idle()).toBe(100);
  });

  it('never grows when the ceiling is not above the poll interval', () => {
    const b = idleBackoff(100, 50);
    expect([b.idle(), b.idle(), b.idle()]).toEqual([100, 100, 100]);
  });
});
