import { hexRgb, type Branding, type CardContent } from './content';

/**
 * Google Wallet loyalty class (one per workspace) and object (one per member), pure. Ids are
 * `<issuerId>.<suffix>` with letters, digits, `.`, `_` and `-` only: workspace ids and serials are.
 */

export const googleClassId = (issuerId: string, workspaceId: string): string => `${issuerId}.${workspaceId}`;
export const googleObjectId = (issuerId: string, serial: string): string => `${issuerId}.${serial}`;

export function loyaltyClassOf(issuerId: string, workspaceId: string, branding: Branding): Record<string, unknown> & { id: string } {
  return {
    id: googleClassId(issuerId, workspaceId),
    issuerName: branding.name,
    programName: `${branding.name} loyalty program`,
    hexBackgroundColor: hexRgb(branding.background),
    reviewStatus: 'UNDER_REVIEW',
  };
}

/** The fields a points or tier change moves (what the PATCH sends). */
export function loyaltyObjectChanges(content: CardContent): Record<string, unknown> {
  return {
    state: content.active ? 'ACTIVE' : 'INACTIVE',
    loyaltyPoints: { label: 'Points', balance: { int: content.points } },
    textModulesData: [{ id: 'tier', header: 'Tier', body: content.tierName }],
  };
}

export function loyaltyObjectOf(issuerId: string, workspaceId: string, serial: string, content: CardContent): Record<string, unknown> & { id: string } {
  return {
    id: googleObjectId(issuerId, serial),
    classId: googleClassId(issuerId, workspaceId),
    accountId: content.memberId,
    accountName: content.holderName,
    barcode: { type: 'QR_CODE', value: content.memberId, alternateText: content.memberId },
    ...loyaltyObjectChanges(content),
  };
}
