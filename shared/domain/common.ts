import * as z from 'zod';

export const isoDateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 timestamp');
