import type { ScheduledEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseSchedule, startScheduler } from '../../../../infra/local/scheduler';

const at = (iso: string) => Date.parse(iso);
const iso = (t: number | undefined) => (t === undefined ? undefined : new Date(t).toISOString());

/** The next `n` runs after `from`. */
function runs(expression: string, from: string, n: number): (string | undefined)[] {
  const next = parseSchedule(expression, at(from));
  const out: (string | undefined)[] = [];
  let t = at(from);
  for (let i = 0; i < n; i++) {
    const r = next(t);
    out.push(iso(r));
    if (r === undefined) break;
    t = r;
  }
  return out;
}

describe('schedule expressions (local subset of EventBridge)', () => {
  it('rate: one period after the start, then every period', () => {
    expect(runs('rate(5 minutes)', '2025-03-01T10:00:30.000Z', 3)).toEqual([
      '2025-03-01T10:05:30.000Z',
      '2025-03-01T10:10:30.000Z',
      '2025-03-01T10:15:30.000Z',
    ]);
    expect(runs('rate(1 day)', '2025-03-01T10:00:00.000Z', 1)).toEqual(['2025-03-02T10:00:00.000Z']);
    expect(runs('rate(2 hours)', '2025-03-01T10:00:00.000Z', 1)).toEqual(['2025-03-01T12:00:00.000Z']);
  });

  it('cron: minutes, hours, lists, ranges, steps and names, in UTC', () => {
    expect(runs('cron(0 3 * * ? *)', '2025-03-01T10:00:00.000Z', 2)).toEqual(['2025-03-02T03:00:00.000Z', '2025-03-03T03:00:00.000Z']);
    expect(runs('cron(*/15 * * * ? *)', '2025-03-01T10:07:00.000Z', 3)).toEqual([
      '2025-03-01T10:15:00.000Z',
      '2025-03-01T10:30:00.000Z',
      '2025-03-01T10:45:00.000Z',
    ]);
    // 2025-03-01 is a Saturday; MON-FRI at 08:30 and 17:30.
    expect(runs('cron(30 8,17 ? * MON-FRI *)', '2025-03-01T00:00:00.000Z', 3)).toEqual([
      '2025-03-03T08:30:00.000Z',
      '2025-03-03T17:30:00.000Z',
      '2025-03-04T08:30:00.000Z',
    ]);
    // Day of week 1 is Sunday; first of the month; a month by name; a year that ends.
    expect(runs('cron(0 0 ? * 1 *)', '2025-03-01T00:00:00.000Z', 1)).toEqual(['2025-03-02T00:00:00.000Z']);
    expect(runs('cron(0 6 1 * ? *)', '2025-03-01T06:00:00.000Z', 1)).toEqual(['2025-04-01T06:00:00.000Z']);
    expect(runs('cron(0 0 1 JAN ? 2026)', '2025-03-01T00:00:00.000Z', 2)).toEqual(['2026-01-01T00:00:00.000Z', undefined]);
  });

  it('refuses what it would not run as AWS does', () => {
    for (const bad of [
      'rate(0 minutes)',
      'rate(5 seconds)',
      'every day',
      'cron(0 3 * * *)',
      'cron(0 3 * * * *)',
      'cron(0 3 ? * ? *)',
      'cron(0 3 L * ? *)',
      'cron(0 3 ? * 2#1 *)',
      'cron(0 3 15W * ? *)',
      'cron(61 3 * * ? *)',
    ]) {
      expect(() => parseSchedule(bad, 0), bad).toThrow();
    }
  });
});

describe('local scheduler', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
  });

  it('invokes the handler with a Scheduled Event at every run; a failing run is logged and the next still comes', async () => {
    vi.stubEnv('TABLE_NAME', 'unit');
    vi.stubEnv('AWS_REGION', 'eu-west-1');
    vi.useFakeTimers({ now: at('2025-03-01T10:00:00.000Z') });
    const events: ScheduledEvent[] = [];
    const logged: string[] = [];
    const scheduler = startScheduler({
      schedules: [
        {
          name: 'nightly-export',
          expression: 'rate(1 minute)',
          functionName: 'loyalty-nightly-export',
          handler: async (event, context) => {
            events.push(event);
            expect(context.functionName).toBe('loyalty-nightly-export');
            if (events.length === 1) throw new Error('first run fails');
          },
        },
      ],
      log: (level, message) => void logged.push(`${level}: ${message}`),
    });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(events).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      'detail-type': 'Scheduled Event',
      source: 'aws.events',
      time: '2025-03-01T10:01:00Z',
      region: 'eu-west-1',
      resources: ['arn:aws:events:eu-west-1:000000000000:rule/nightly-export'],
    });
    expect(logged).toEqual(['error: local scheduler: scheduled run failed']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(events.map((e) => e.time)).toEqual(['2025-03-01T10:01:00Z', '2025-03-01T10:02:00Z']);
    await scheduler.stop(100);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(events).toHaveLength(2);
  });

  it('with no schedules it starts and stops at once', async () => {
    await startScheduler({ schedules: [] }).stop();
  });
});
