/**
 * Wallet passes, their serials and device registrations as the table stores them. Plain
 * declarations below the domain and the wallet port, so the data layer can name them without
 * importing either.
 */
import * as z from 'zod';
import { defineEntity } from '../platform/data/entity';

export const WALLET_PLATFORMS = ['apple', 'google'] as const;
export type WalletPlatform = (typeof WALLET_PLATFORMS)[number];

/**
 * A member's pass on one platform, as stored. The serial and the pass's tokens never change in an
 * update. The item also holds when each token was issued (`tokenAt_<hash>`, epoch seconds) and the
 * content version pushed last (`syncedHash`), read by the wallet area by name.
 */
export const walletPassEntity = defineEntity({
  name: 'walletPass',
  schema: z.object({
    workspaceId: z.string(),
    memberId: z.string(),
    platform: z.enum(WALLET_PLATFORMS),
    serial: z.string(),
    /** SHA-256 of each `authenticationToken` handed out for this serial (Apple; newest last). */
    authTokenHashes: z.array(z.string()),
    /** Fingerprint of what the card shows; a change moves `lastModified`. */
    contentHash: z.string(),
    /** Epoch ms, whole seconds (HTTP dates have no finer resolution), strictly increasing. */
    lastModified: z.number(),
    createdAt: z.string(),
  }),
  keys: (p) => ({ workspaceId: p.workspaceId, memberId: p.memberId, platform: p.platform }),
});
export type WalletPassRecord = z.infer<typeof walletPassEntity.schema>;

/** Serial -> the pass's workspace and member (the device names a pass by serial only), keyed by the serial's SHA-256. */
export const walletSerialEntity = defineEntity({
  name: 'walletSerial',
  schema: z.object({
    serial: z.string(),
    workspaceId: z.string(),
    memberId: z.string(),
    platform: z.enum(WALLET_PLATFORMS),
    /** Set when the member's passes were retired (erasure): the serial answers 410 from then on. */
    goneAt: z.string().optional(),
  }),
  keys: (_, c: { serialHash: string }) => c,
});
export type WalletSerialRecord = z.infer<typeof walletSerialEntity.schema>;

export const walletRegistrationEntity = defineEntity({
  name: 'walletRegistration',
  schema: z.object({
    workspaceId: z.string(),
    memberId: z.string(),
    serial: z.string(),
    passTypeId: z.string(),
    deviceId: z.string(),
    deviceHash: z.string(),
    pushToken: z.string(),
    createdAt: z.string(),
    /** The content version this device was last told about (it registered holding the then current one). */
    pushedHash: z.string().optional(),
  }),
  keys: (r) => ({ workspaceId: r.workspaceId, memberId: r.memberId, serial: r.serial, deviceHash: r.deviceHash }),
});
export type WalletRegistrationRecord = z.infer<typeof walletRegistrationEntity.schema>;

/** A device's registration as its lookup holds it: which pass of which member (the device's list call). */
export const walletDeviceEntity = defineEntity({
  name: 'walletDevice',
  schema: z.object({ workspaceId: z.string(), memberId: z.string(), serial: z.string(), passTypeId: z.string(), createdAt: z.string() }),
  keys: (d, c: { deviceHash: string }) => ({ deviceHash: c.deviceHash, passTypeId: d.passTypeId, serial: d.serial }),
});
export type DeviceRegistration = z.infer<typeof walletDeviceEntity.schema>;

/** The workspace's card branding as stored (colours `#rrggbb`, logo PNG base64). */
export const walletBrandingEntity = defineEntity({
  name: 'walletBranding',
  schema: z.object({
    backgroundColor: z.string().nullable(),
    foregroundColor: z.string().nullable(),
    labelColor: z.string().nullable(),
    logoPng: z.string().nullable(),
    updatedAt: z.string(),
  }),
  keys: (_, c: { workspaceId: string }) => c,
});
export type WalletBrandingRecord = z.infer<typeof walletBrandingEntity.schema>;
