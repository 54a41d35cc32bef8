import { createHash } from 'node:crypto';

/** Colours as Apple wants them (`rgb(r, g, b)`); Google takes the hex form of the same colour. */
export type Rgb = readonly [number, number, number];

export interface Branding {
  /** The workspace's name: organisation name, logo text and Google's issuer/program name. */
  name: string;
  background: Rgb;
  foreground: Rgb;
  label: Rgb;
  /** The workspace's logo (PNG); without one the card gets a plain one in its background colour. */
  logo?: Buffer;
}

/** Default card colours (the workspace's name is always its own). */
export const DEFAULT_COLOURS = { background: [17, 24, 39], foreground: [255, 255, 255], label: [209, 213, 219] } as const satisfies Record<string, Rgb>;

/** What a card shows of its member: everything that, when it changes, makes the card change. */
export interface CardContent {
  memberId: string;
  /** Shown as the account name on Google's card; the member's own name or, without one, the member id. */
  holderName: string;
  points: number;
  tierKey: string;
  tierName: string;
  active: boolean;
}

export const cssRgb = ([r, g, b]: Rgb): string => `rgb(${r}, ${g}, ${b})`;
export const hexRgb = (rgb: Rgb): string => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** Fingerprint of what a card shows: equal fingerprints mean nothing to update or push. */
export function contentHash(content: CardContent, branding: Branding): string {
  const logo = branding.logo ? createHash('sha256').update(branding.logo).digest('hex') : null;
  const canonical = JSON.stringify([
    content.memberId,
    content.holderName,
    content.points,
    content.tierKey,
    content.tierName,
    content.active,
    branding.name,
    branding.background,
    branding.foreground,
    branding.label,
    logo,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
