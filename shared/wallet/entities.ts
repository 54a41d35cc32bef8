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
export const walletPassRecordSchema = () =>
  z.object({
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
  });
export type WalletPassRecord = z.infer<ReturnType<typeof walletPassRecordSchema>>;

export const walletPassEntity = /* @__PURE__ */ defineEntity({
  name: 'walletPass',
  keys: (p: WalletPassRecord) => ({ workspaceId: p.workspaceId, memberId: p.memberId, platform: p.platform }),
});

/** Serial -> the pass's workspace and member (the device names a pass by serial only), keyed by the serial's SHA-256. */
export const walletSerialRecordSchema = () =>
  z.object({
    serial: z.string(),
    workspaceId: z.string(),
    memberId: z.string(),
    platform: z.enum(WALLET_PLATFORMS),
    /** Set when the member's passes were retired (erasure): the serial answers 410 from then on. */
    goneAt: z.string().optional(),
  });
export type WalletSerialRecord = z.infer<ReturnType<typeof walletSerialRecordSchema>>;

export const walletSerialEntity = /* @__PURE__ */ defineEntity({
  name: 'walletSerial',
  keys: (_: WalletSerialRecord, c: { serialHash: string }) => c,
});

export const walletRegistrationRecordSchema = () =>
  z.object({
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
  });
export type WalletRegistrationRecord = z.infer<ReturnType<typeof walletRegistrationRecordSchema>>;

export const walletRegistrationEntity = /* @__PURE__ */ defineEntity({
  name: 'walletRegistration',
  keys: (r: WalletRegistrationRecord) => ({ workspaceId: r.workspaceId, memberId: r.memberId, serial: r.serial, deviceHash: r.deviceHash }),
});

/** A device's registration as its lookup holds it: which pass of which member (the device's list call). */
export const walletDeviceRecordSchema = () =>
  z.object({ workspaceId: z.string(), memberId: z.string(), serial: z.string(), passTypeId: z.string(), createdAt: z.string() });
export type DeviceRegistration = z.infer<ReturnType<typeof walletDeviceRecordSchema>>;

export const walletDeviceEntity = /* @__PURE__ */ defineEntity({
  name: 'walletDevice',
  keys: (d: DeviceRegistration, c: { deviceHash: string }) => ({ deviceHash: c.deviceHash, passTypeId: d.passTypeId, serial: d.serial }),
});

/** The workspace's card branding as stored (colours `#rrggbb`, logo PNG base64). */
export const walletBrandingRecordSchema = () =>
  z.object({
    backgroundColor: z.string().nullable(),
    foregroundColor: z.string().nullable(),
    labelColor: z.string().nullable(),
    logoPng: z.string().nullable(),
    updatedAt: z.string(),
  });
export type WalletBrandingRecord = z.infer<ReturnType<typeof walletBrandingRecordSchema>>;

export const walletBrandingEntity = /* @__PURE__ */ defineEntity({
  name: 'walletBranding',
  keys: (_: WalletBrandingRecord, c: { workspaceId: string }) => c,
});
