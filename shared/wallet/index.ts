/**
 * The door of the wallet area: what other areas, the HTTP layer, MCP, the functions and infra use of it,
 * named one by one. Files inside the area import each other directly (docs/architecture.md).
 */

export { deviceLogLines, latestPass, registerDevice, unregisterDevice, updatedSerials } from './apple-web-service';
export { brandingSchema, getWalletBranding, putWalletBranding } from './branding';
export { walletArea, walletPassesArea } from './contract';
export { changedMember, coalesce, pushMessageBody, refreshMemberPasses, reportRefresh } from './push';
export type { MemberImage, MemberRef } from './push';
export { issuePass, passesOfMember, retireMemberPasses } from './service';
export { httpDate } from './updates';
