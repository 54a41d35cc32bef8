import { cssRgb, type Branding, type CardContent } from './content';
import { solidPng } from './png';

export interface ApplePassInput {
  passTypeIdentifier: string;
  teamIdentifier: string;
  serial: string;
  /** >= 16 characters; the same for the life of the pass (never changed in an update). */
  authenticationToken: string;
  /** `<PUBLIC_BASE_URL>/api/wallet/apple`: the device appends `/v1/...`. */
  webServiceURL: string;
  content: CardContent;
  branding: Branding;
}

/**
 * pass.json of a member's store card: points (primary) and tier (header) with `changeMessage`, so
 * the lock screen tells the change, the member reference as QR barcode, the workspace's branding.
 */
export function applePassJson(input: ApplePassInput): Record<string, unknown> {
  const { content, branding } = input;
  if (input.authenticationToken.length < 16) throw new Error('authenticationToken must have at least 16 characters');
  return {
    formatVersion: 1,
    passTypeIdentifier: input.passTypeIdentifier,
    teamIdentifier: input.teamIdentifier,
    serialNumber: input.serial,
    authenticationToken: input.authenticationToken,
    webServiceURL: input.webServiceURL,
    organizationName: branding.name,
    description: `${branding.name} membership card`,
    logoText: branding.name,
    backgroundColor: cssRgb(branding.background),
    foregroundColor: cssRgb(branding.foreground),
    labelColor: cssRgb(branding.label),
    sharingProhibited: true,
    barcodes: [{ format: 'PKBarcodeFormatQR', message: content.memberId, messageEncoding: 'iso-8859-1', altText: content.memberId }],
    storeCard: {
      headerFields: [{ key: 'tier', label: 'Tier', value: content.tierName, changeMessage: 'Your tier is now %@' }],
      primaryFields: [{ key: 'points', label: 'Points', value: content.points, changeMessage: 'Your balance is now %@ points' }],
      secondaryFields: [{ key: 'member', label: 'Member', value: content.memberId }],
      // Empty, and kept: the pass.json devices have always received lists all five field groups.
      auxiliaryFields: [],
      backFields: [{ key: 'program', label: 'Program', value: `${branding.name} loyalty program` }],
    },
  };
}

/** Every file of the pass bundle except manifest and signature (the signer adds them). */
export function applePassFiles(input: ApplePassInput): Record<string, Buffer> {
  const bg = input.branding.background;
  return {
    'pass.json': Buffer.from(JSON.stringify(applePassJson(input))),
    'icon.png': solidPng(29, 29, bg),
    'icon@2x.png': solidPng(58, 58, bg),
    'logo.png': input.branding.logo ?? solidPng(160, 50, bg),
    'logo@2x.png': input.branding.logo ?? solidPng(320, 100, bg),
  };
}
