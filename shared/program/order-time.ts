/**
 * Which time governs an order (docs/decisions/0077-one-clock-per-order.md): pure. The order's own
 * time (`occurredAt`) decides the offers it was placed under (campaign dates, date.weekday), within
 * the program's backdating limit; the recording time (program time) governs the ledger (lots,
 * expiry, pending activation, tier buckets, finance periods).
 */
import { DAY_MS } from './calendar';

/** A week: a shop system's webhook retries (days), a nightly reconciliation, a till that was offline over a weekend. */
export const DEFAULT_BACKDATING_LIMIT_DAYS = 7;

/** How far an order's time may run ahead of the program clock: the sender's clock drift, not a future order. */
export const FUTURE_SKEW_MS = 5 * 60_000;

/** The oldest order time whose campaigns still grant when the order is recorded at `recordedAt` (the bound itself grants). */
export const campaignsNotBefore = (recordedAt: number, backdatingLimitDays: number): number => recordedAt - backdatingLimitDays * DAY_MS;

/** Whether an order's time lies in the future of its recording beyond the clock skew tolerated (such an order is refused). */
export const inTheFuture = (occurredAt: number, recordedAt: number): boolean => occurredAt - recordedAt > FUTURE_SKEW_MS;
