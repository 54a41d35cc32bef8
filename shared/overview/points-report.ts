/**
 * The points report, pure: a period's figures from the workspace's day counters (points-day.ts).
 * The counters before the period make its opening balance; the period's counters what moved; their
 * running sum the outstanding points at each bucket's end. Definitions: docs/program.md, "Finance".
 */
import { fromMinor, currencyExponent } from '../platform/money';
import { addCounters, outstandingMove, type DayCounters } from './points-day';
import type { CountedDay } from './points-repository';

export type Granularity = 'day' | 'month';

export interface IssuedFigures {
  base: number;
  campaign: number;
  manual: number;
  total: number;
}

/** What moved in one stretch of days, and where it left the balances at its end. */
export interface PeriodFigures {
  issued: IssuedFigures;
  redeemed: number;
  reversed: number;
  expired: number;
  deducted: number;
  /** Points outstanding (spendable balances, the liability) at the end. */
  outstanding: number;
  /** Points of orders still waiting to become spendable at the end. */
  pending: number;
}

export interface Bucket extends PeriodFigures {
  /** First and last local day of the bucket (a month is clipped to the period). */
  start: string;
  end: string;
}

export interface PointsReport {
  from: string;
  to: string;
  granularity: Granularity;
  timeZone: string;
  totals: PeriodFigures & { opening: number };
  rates: { period: Rates; lifeToDate: Rates };
  /** Points outstanding at the end by the local month they expire in; `month: null`: no date (no expiry, inactivity, or older than the lots). */
  liabilityByExpiry: { month: string | null; points: number }[];
  /** The outstanding points valued at the program's `pointValue`, one line per currency. */
  value: { currency: string; pointValue: number; amount: number }[];
  buckets: Bucket[];
  /** The campaigns whose rewards credited the most points in the period, most first. */
  campaigns: CampaignFigures[];
  /** The period of equal length just before, for comparison. */
  previous: { from: string; to: string; totals: PeriodFigures & { opening: number } };
}

/** What one campaign's point rewards credited in a period, and in the period before. */
export interface CampaignFigures {
  campaignId: string;
  points: number;
  /** Rewards credited (a member rewarded twice counts twice). */
  rewards: number;
  previousPoints: number;
}

/** Campaigns listed at most. */
export const TOP_CAMPAIGNS = 10;

/** The campaigns of a period's counters by the points they credited (most first, then by id), with the previous period's points. */
export function topCampaigns(moved: DayCounters, previous: DayCounters, limit = TOP_CAMPAIGNS): CampaignFigures[] {
  const of = (c: DayCounters, prefix: string, id: string) => (c[`${prefix}${id}` as keyof DayCounters] as number | undefined) ?? 0;
  return Object.keys(moved)
    .filter((k) => k.startsWith('c.'))
    .map((k) => k.slice(2))
    .map((id) => ({ campaignId: id, points: of(moved, 'c.', id), rewards: of(moved, 'n.', id), previousPoints: of(previous, 'c.', id) }))
    .filter((c) => c.points !== 0 || c.rewards !== 0)
    .sort((a, b) => b.points - a.points || (a.campaignId < b.campaignId ? -1 : 1))
    .slice(0, limit);
}

/** What the days from `from` to `to` moved, and the counters through `to`. */
function stretch(days: readonly CountedDay[], from: string, to: string): { before: DayCounters; moved: DayCounters } {
  let before: DayCounters = {};
  let moved: DayCounters = {};
  for (const d of days) {
    if (d.day < from) before = addCounters(before, d.counters);
    else if (d.day <= to) moved = addCounters(moved, d.counters);
  }
  return { before, moved };
}

/** redemption: redeemed / issued; breakage: expired / issued (null while nothing was issued). */
export interface Rates {
  redemption: number | null;
  breakage: number | null;
}

const n = (c: DayCounters, k: keyof DayCounters) => (c[k] as number | undefined) ?? 0;

/** The figures of counters summed over a stretch, with the outstanding and pending at its end. */
export function figuresOf(moved: DayCounters, through: DayCounters): PeriodFigures {
  const base = n(moved, 'issuedBase');
  const campaign = n(moved, 'issuedCampaign');
  const manual = n(moved, 'issuedManual');
  return {
    issued: { base, campaign, manual, total: base + campaign + manual },
    redeemed: n(moved, 'redeemed'),
    reversed: n(moved, 'reversed'),
    expired: n(moved, 'expired'),
    deducted: n(moved, 'deducted'),
    outstanding: outstandingMove(through),
    pending: n(through, 'pending'),
  };
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);

export function ratesOf(f: Pick<PeriodFigures, 'issued' | 'redeemed' | 'expired'>): Rates {
  return { redemption: ratio(f.redeemed, f.issued.total), breakage: ratio(f.expired, f.issued.total) };
}

/** The local days from `from` to `to`, both included (`yyyy-mm-dd`). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

const DAY_MS = 86_400_000;

/** Whole days from `a` to `b` (`yyyy-mm-dd`). */
export const dayGap = (a: string, b: string): number => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);

/** The local day `n` days after `day` (negative: before). */
const shiftDay = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** The period of equal length just before `from`..`to` (what each figure is compared with). */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  const length = dayGap(from, to) + 1;
  return { from: shiftDay(from, -length), to: shiftDay(from, -1) };
}

/** The buckets of a period: each day, or each month clipped to the period. */
export function bucketsOf(from: string, to: string, granularity: Granularity): { start: string; end: string }[] {
  const days = daysBetween(from, to);
  if (granularity === 'day') return days.map((d) => ({ start: d, end: d }));
  const months = new Map<string, { start: string; end: string }>();
  for (const d of days) {
    const m = months.get(d.slice(0, 7));
    if (m) m.end = d;
    else months.set(d.slice(0, 7), { start: d, end: d });
  }
  return [...months.values()];
}

/** Points outstanding by expiry month: the dated months as counted, the rest of the outstanding without a date. */
export function liabilityByExpiry(through: DayCounters): PointsReport['liabilityByExpiry'] {
  const dated = Object.entries(through)
    .filter(([k, v]) => k.startsWith('x') && v !== 0)
    .map(([k, v]) => ({ month: k.slice(1) as string | null, points: v as number }))
    .sort((a, b) => (a.month! < b.month! ? -1 : 1));
  const undated = outstandingMove(through) - dated.reduce((s, d) => s + d.points, 0);
  return undated === 0 ? dated : [...dated, { month: null, points: undated }];
}

/** `points` at `perPoint` in `currency`, rounded to the currency's minor unit. */
export function moneyValueOf(points: number, perPoint: number, currency: string): number {
  const exponent = currencyExponent(currency);
  // perPoint has at most 6 decimals: scaled to integers first, so the product is exact before rounding.
  const micro = Math.round(perPoint * 1e6);
  return fromMinor(Math.round((points * micro * 10 ** exponent) / 1e6), currency);
}

export interface ReportInput {
  /** Every counted day through `to`, oldest first. */
  days: readonly CountedDay[];
  from: string;
  to: string;
  granularity: Granularity;
  timeZone: string;
  pointValue: Record<string, number>;
}

/** The report of a period from the day counters read through its end. */
export function pointsReport(input: ReportInput): PointsReport {
  const { days, from, to } = input;
  const byDay = new Map(days.map((d) => [d.day, d.counters]));
  const before = days.filter((d) => d.day < from).reduce<DayCounters>((s, d) => addCounters(s, d.counters), {});
  let through = before;
  const buckets = bucketsOf(from, to, input.granularity).map((b): Bucket => {
    let moved: DayCounters = {};
    for (const d of daysBetween(b.start, b.end)) moved = addCounters(moved, byDay.get(d) ?? {});
    through = addCounters(through, moved);
    return { ...b, ...figuresOf(moved, through) };
  });
  const moved = addCounters(through, before, -1);
  const totals = { opening: outstandingMove(before), ...figuresOf(moved, through) };
  const lifeToDate = figuresOf(through, through);
  const prior = previousPeriod(from, to);
  const last = stretch(days, prior.from, prior.to);
  const lastThrough = addCounters(last.before, last.moved);
  return {
    from,
    to,
    granularity: input.granularity,
    timeZone: input.timeZone,
    totals,
    rates: { period: ratesOf(totals), lifeToDate: ratesOf(lifeToDate) },
    liabilityByExpiry: liabilityByExpiry(through),
    value: Object.entries(input.pointValue)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, pointValue]) => ({ currency, pointValue, amount: moneyValueOf(totals.outstanding, pointValue, currency) })),
    buckets,
    campaigns: topCampaigns(moved, last.moved),
    previous: { ...prior, totals: { opening: outstandingMove(last.before), ...figuresOf(last.moved, lastThrough) } },
  };
}
