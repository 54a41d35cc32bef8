import * as z from 'zod';
import { isoDateTime } from '../platform/validation/common';

/** The most a clock moves in one step: ten years. */
export const MAX_ADVANCE_DAYS = 3650;

export const advanceClockBody = z.strictObject({
  days: z
    .number()
    .int({ message: 'must be a whole number of days' })
    .min(1, { message: 'must be at least 1: a clock never moves backwards' })
    .max(MAX_ADVANCE_DAYS, { message: `must be at most ${MAX_ADVANCE_DAYS}` })
    .describe(`Days to move the sandbox clock ahead, 1-${MAX_ADVANCE_DAYS}`),
});

export const clockSchema = z.object({ now: isoDateTime.describe("The workspace's program time") }).meta({ id: 'ProgramClock' });
