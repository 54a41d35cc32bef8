/**
 * Wallet passes, their serials and device registrations as the table stores them. Plain
 * declarations below the domain and the wallet port, so the data layer can name them without
 * importing either.
 */

export const WALLET_PLATFORMS = ['apple', 'google'] as const;
export type WalletPlatform = (typeof WALLET_PLATFORMS)[number];

/** A member's pass on one platform, as stored. The serial and the pass's tokens never change in an update. */
export interface WalletPassRecord {
  workspaceId: string;
  memberId: string;
  platform: WalletPlatform;
  serial: string;
  /** SHA-256 of each `authenticationToken` handed out for this serial (Apple; newest last). */
  authTokenHashes: string[];
  /** Fingerprint of what the card shows; a change moves `lastModified`. */
  contentHash: string;
  /** Epoch ms, whole seconds (HTTP dates have no finer resolution), strictly increasing. */
  lastModified: number;
  createdAt: string;
}

/** Serial -> the pass's workspace and member (the device names a pass by serial only). */
export interface WalletSerialRecord {
  serial: string;
  workspaceId: string;
  memberId: string;
  platform: WalletPlatform;
  /** Set when the member's passes were retired (erasure): the serial answers 410 from then on. */
  goneAt?: string;
}

export interface WalletRegistrationRecord {
  workspaceId: string;
  memberId: string;
  serial: string;
  passTypeId: string;
  deviceId: string;
  deviceHash: string;
  pushToken: string;
  createdAt: string;
  /** The content version this device was last told about (it registered holding the then current one). */
  pushedHash?: string;
}
