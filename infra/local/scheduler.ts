import { randomUUID } from 'node:crypto';
import type { Context, ScheduledEvent } from 'aws-lambda';
import { config, runtimeConfig } from '../../shared/platform/config';
import { logger } from '../../shared/platform/observability/logger';
import { lambdaContext, nap, settleWithin } from './lambda-runtime';
import type { DriverLog } from './queue-driver';

/**
 * The local stand-in for EventBridge schedule rules: invokes a `schedule` consumer's handler with a
 * Scheduled Event at the times its expression names (UTC). Supported: `rate(n minute[s]|hour[s]|
 * day[s])`, whose first run is one period after the start, and `cron(min hour day-of-month month
 * day-of-week year)` with `*`, `?`, numbers, names (JAN, MON), ranges, steps and lists; `L`, `W`
 * and `#` throw at start rather than run at other times than in AWS.
 *
 * Not emulated: the asynchronous invocation's retries of a failed run (it is logged), and runs
 * missed while the runtime was stopped.
 */

export type ScheduleHandler = (event: ScheduledEvent, context: Context) => Promise<unknown>;

export interface LocalSchedule {
  /** Consumer name (the rule's name in the event). */
  name: string;
  expression: string;
  handler: ScheduleHandler;
  functionName?: string;
  timeoutSeconds?: number;
}

/** When a schedule runs next: the first time after `after` (undefined: never again). */
export type NextRun = (after: number) => number | undefined;

const MINUTE = 60_000;
const RATE_UNITS: Record<string, number> = { minute: MINUTE, hour: 60 * MINUTE, day: 24 * 60 * MINUTE };
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
/** minute, hour, day of month, month, day of week (1 = Sunday), year. */
const FIELDS = [
  { name: 'minutes', min: 0, max: 59 },
  { name: 'hours', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  { name: 'day-of-week', min: 1, max: 7, names: DAYS },
  { name: 'year', min: 1970, max: 2199 },
] as const;

/** The values a cron field allows (undefined for `*` and `?`: any). */
function cronField(text: string, field: (typeof FIELDS)[number]): Set<number> | undefined {
  if (text === '*' || text === '?') return undefined;
  const names: readonly string[] = 'names' in field ? field.names : [];
  const value = (v: string): number => {
    const named = names.indexOf(v.toUpperCase());
    const n = named >= 0 ? named + 1 : /^\d+$/.test(v) ? Number(v) : NaN;
    if (!(n >= field.min && n <= field.max)) throw new Error(`cron ${field.name}: ${v} is not supported locally`);
    return n;
  };
  const allowed = new Set<number>();
  for (const part of text.split(',')) {
    const m = /^([^/-]+)(?:-([^/]+))?(?:\/(\d+))?$/.exec(part);
    if (!m) throw new Error(`cron ${field.name}: ${part} is not supported locally`);
    const from = m[1] === '*' ? field.min : value(m[1]!);
    const to = m[2] !== undefined ? value(m[2]) : m[3] !== undefined || m[1] === '*' ? field.max : from;
    const step = m[3] !== undefined ? Number(m[3]) : 1;
    if (step < 1 || to < from) throw new Error(`cron ${field.name}: ${part} is not supported locally`);
    for (let n = from; n <= to; n += step) allowed.add(n);
  }
  return allowed;
}

function cronSchedule(body: string): NextRun {
  const parts = body.trim().split(/\s+/);
  if (parts.length !== 6) throw new Error(`cron(${body}): expected 6 fields`);
  const [minutes, hours, dom, month, dow, year] = parts.map((p, i) => cronField(p, FIELDS[i]!));
  if ((parts[2] === '?') === (parts[4] === '?')) throw new Error(`cron(${body}): exactly one of day-of-month and day-of-week must be ?`);
  const ok = (set: Set<number> | undefined, n: number) => !set || set.has(n);
  return (after) => {
    const t = new Date(Math.floor(after / MINUTE) * MINUTE + MINUTE);
    while (t.getUTCFullYear() <= FIELDS[5].max) {
      const dayOk = ok(year, t.getUTCFullYear()) && ok(month, t.getUTCMonth() + 1) && ok(dom, t.getUTCDate()) && ok(dow, t.getUTCDay() + 1);
      if (!dayOk) {
        t.setUTCHours(24, 0, 0, 0);
        continue;
      }
      if (!ok(hours, t.getUTCHours())) {
        t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
        continue;
      }
      if (ok(minutes, t.getUTCMinutes())) return t.getTime();
      t.setTime(t.getTime() + MINUTE);
    }
    return undefined;
  };
}

/** Parses an EventBridge schedule expression (throws on what the local scheduler does not support). */
export function parseSchedule(expression: string, startedAt: number): NextRun {
  const rate = /^rate\((\d+) (minute|hour|day)s?\)$/.exec(expression);
  if (rate) {
    const period = Number(rate[1]) * RATE_UNITS[rate[2]!]!;
    if (period <= 0) throw new Error(`${expression}: the rate must be positive`);
    return (after) => startedAt + (Math.floor((after - startedAt) / period) + 1) * period;
  }
  const cron = /^cron\((.*)\)$/.exec(expression);
  if (cron) return cronSchedule(cron[1]!);
  throw new Error(`${expression}: expected rate(...) or cron(...)`);
}

export interface Scheduler {
  /** Stops and waits for running invocations up to `graceMs` (default 10 s). Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

const defaultLog: DriverLog = (level, message, details) => logger[level](message, details);

export function startScheduler(opts: { schedules: LocalSchedule[]; log?: DriverLog }): Scheduler {
  const log = opts.log ?? defaultLog;
  const abort = new AbortController();
  const startedAt = Date.now();
  const running = new Set<Promise<unknown>>();
  const plans = opts.schedules.map((s) => {
    const next = parseSchedule(s.expression, startedAt);
    return { ...s, next, due: next(startedAt) };
  });

  function run(s: (typeof plans)[number], at: number): void {
    const functionName = s.functionName ?? `local-${s.name}`;
    const invocation = (async () => {
      const region = runtimeConfig().AWS_REGION;
      const event: ScheduledEvent = {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Scheduled Event',
        source: 'aws.events',
        account: '000000000000',
        time: new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        region,
        resources: [`arn:aws:events:${region}:000000000000:rule/${s.name}`],
        detail: {},
      };
      await s.handler(event, lambdaContext(functionName, s.timeoutSeconds ?? config.lambda.timeoutSeconds));
    })()
      .catch((err: unknown) => log('error', 'local scheduler: scheduled run failed', { schedule: s.name, functionName, error: err }))
      .finally(() => running.delete(invocation));
    running.add(invocation);
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      const now = Date.now();
      for (const s of plans) {
        if (s.due === undefined || s.due > now) continue;
        run(s, s.due);
        s.due = s.next(now);
      }
      const soonest = Math.min(...plans.map((s) => s.due ?? Infinity));
      if (soonest === Infinity) break;
      // Re-checked at least every minute, so a changed system clock is followed.
      await nap(Math.max(0, Math.min(soonest - Date.now(), MINUTE)), abort.signal);
    }
  })();

  let stopped: Promise<void> | undefined;
  return {
    stop(graceMs = 10_000) {
      stopped ??= (async () => {
        abort.abort();
        await loop;
        if (await settleWithin(Promise.all(running), graceMs)) {
          log('warn', 'local scheduler: stopped with scheduled runs still going', {});
        }
      })();
      return stopped;
    },
  };
}
