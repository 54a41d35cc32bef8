import * as z from 'zod';
import { getBranding, putBranding } from './repository';
import type { WalletBrandingRecord } from './entities';
import { audited, type AuditContext } from '../audit';
import { validationFailed } from '../platform/errors';
import { DEFAULT_COLOURS, type Rgb } from './content';

/**
 * The workspace's wallet card branding: colours and a logo, set by an owner or admin. Anything left
 * out falls back to the defaults (dark card, white text, a plain logo); the name is the workspace's.
 */

const hexColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour');
/** A logo of at most 96 KiB (Apple shows it at 160x50 points; 320x100 pixels is plenty). */
const MAX_LOGO_BASE64 = 131_072;

export const brandingBody = z.strictObject({
  backgroundColor: hexColour.nullable().optional(),
  foregroundColor: hexColour.nullable().optional(),
  labelColor: hexColour.nullable().optional(),
  logoPng: z
    .string()
    .max(MAX_LOGO_BASE64)
    .regex(/^[A-Za-z0-9+/=]{1,131072}$/, 'must be a base64 PNG')
    .nullable()
    .optional()
    .describe('The logo, a PNG, base64; at most 96 KiB'),
});

export const brandingSchema = z
  .object({
    backgroundColor: z.string(),
    foregroundColor: z.string(),
    labelColor: z.string(),
    logoPng: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .meta({ id: 'WalletBranding' });
export type BrandingSettings = z.output<typeof brandingSchema>;

const hexOf = (rgb: Rgb) => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
const rgbOf = (hex: string | null | undefined, fallback: Rgb): Rgb =>
  hex ? ([1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb) : fallback;

function settingsOf(stored: WalletBrandingRecord | undefined): BrandingSettings {
  return {
    backgroundColor: stored?.backgroundColor ?? hexOf(DEFAULT_COLOURS.background),
    foregroundColor: stored?.foregroundColor ?? hexOf(DEFAULT_COLOURS.foreground),
    labelColor: stored?.labelColor ?? hexOf(DEFAULT_COLOURS.label),
    logoPng: stored?.logoPng ?? null,
    updatedAt: stored?.updatedAt ?? null,
  };
}

export async function getWalletBranding(workspaceId: string): Promise<BrandingSettings> {
  return settingsOf(await getBranding(workspaceId));
}

/** True for the bytes of a PNG image (signature and an IHDR chunk first). */
export function isPng(bytes: Buffer): boolean {
  return bytes.length > 24 && bytes.subarray(0, 8).toString('hex') === '89504e470d0a1a0a' && bytes.subarray(12, 16).toString('ascii') === 'IHDR';
}

export async function putWalletBranding(
  workspaceId: string,
  body: z.output<typeof brandingBody>,
  audit: AuditContext,
  now = new Date(),
): Promise<BrandingSettings> {
  if (body.logoPng && !isPng(Buffer.from(body.logoPng, 'base64'))) {
    throw validationFailed([{ in: 'body', field: 'logoPng', message: 'must be a PNG image (base64)' }]);
  }
  const record: WalletBrandingRecord = {
    backgroundColor: body.backgroundColor?.toLowerCase() ?? null,
    foregroundColor: body.foregroundColor?.toLowerCase() ?? null,
    labelColor: body.labelColor?.toLowerCase() ?? null,
    logoPng: body.logoPng ?? null,
    updatedAt: now.toISOString(),
  };
  await putBranding(workspaceId, record, [audited(workspaceId, audit, 'wallet_branding.updated', { type: 'workspace', id: workspaceId }, now)]);
  return settingsOf(record);
}

/** Colours and logo for the cards (the defaults where the workspace set nothing). */
export async function cardBrandingOf(workspaceId: string): Promise<{ background: Rgb; foreground: Rgb; label: Rgb; logo?: Buffer }> {
  const stored = await getBranding(workspaceId);
  return {
    background: rgbOf(stored?.backgroundColor, DEFAULT_COLOURS.background),
    foreground: rgbOf(stored?.foregroundColor, DEFAULT_COLOURS.foreground),
    label: rgbOf(stored?.labelColor, DEFAULT_COLOURS.label),
    ...(stored?.logoPng ? { logo: Buffer.from(stored.logoPng, 'base64') } : {}),
  };
}
