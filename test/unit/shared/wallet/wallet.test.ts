import { createHash, createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWalletCredentials, WALLET_FILES } from '../../../../infra/local/wallet-credentials';
import { apnsOutcome } from '../../../../shared/platform/adapters/wallet/apns';
import { issuerAndSerialNumber, oid, PkpassSigner, storedZip, utcTime } from '../../../../shared/platform/adapters/wallet/pkpass-signer';
import type { AppleWalletCredentials } from '../../../../shared/platform/ports/wallet';
import { applePassFiles, applePassJson, type ApplePassInput } from '../../../../shared/wallet/apple-pass';
import { applePassToken, liveTokenHashes, tokenMatches } from '../../../../shared/wallet/apple-web-service';
import { contentHash, DEFAULT_COLOURS, hexRgb, type CardContent } from '../../../../shared/wallet/content';
import { googleClassId, googleObjectId, loyaltyObjectChanges, loyaltyObjectOf } from '../../../../shared/wallet/google-objects';
import { solidPng } from '../../../../shared/wallet/png';
import { changedMember, coalesce, pushMessageSchema } from '../../../../shared/wallet/push';
import { httpDate, nextLastModified, notModified, updatedSince } from '../../../../shared/wallet/updates';
import { sha256Hex } from '../../../../shared/platform/tokens';
import { unpackPass, verifyPassSignature } from '../../../support/wallet';

const content: CardContent = { memberId: 'mbr_1', holderName: 'Ada Lovelace', points: 640, tierKey: 'silver', tierName: 'Silver', active: true };
const branding = { name: 'Corner Shop', ...DEFAULT_COLOURS };
const input: ApplePassInput = {
  passTypeIdentifier: 'pass.example.loyalty',
  teamIdentifier: 'TEAM123456',
  serial: 'wps_1',
  authenticationToken: 'a'.repeat(32),
  webServiceURL: 'https://loyalty.example/api/wallet/apple',
  content,
  branding,
};

describe('pass.json of a store card', () => {
  it('carries identifiers, web service, branding, barcode, points and tier with change messages', () => {
    const json = applePassJson(input);
    expect(json).toMatchObject({
      formatVersion: 1,
      passTypeIdentifier: 'pass.example.loyalty',
      teamIdentifier: 'TEAM123456',
      serialNumber: 'wps_1',
      authenticationToken: 'a'.repeat(32),
      webServiceURL: 'https://loyalty.example/api/wallet/apple',
      organizationName: 'Corner Shop',
      backgroundColor: 'rgb(17, 24, 39)',
      foregroundColor: 'rgb(255, 255, 255)',
      labelColor: 'rgb(209, 213, 219)',
      barcodes: [{ format: 'PKBarcodeFormatQR', message: 'mbr_1', messageEncoding: 'iso-8859-1', altText: 'mbr_1' }],
    });
    const card = json.storeCard as Record<string, { key: string; value: unknown; changeMessage?: string }[]>;
    expect(card.primaryFields).toEqual([expect.objectContaining({ key: 'points', value: 640, changeMessage: expect.stringContaining('%@') })]);
    expect(card.headerFields).toEqual([expect.objectContaining({ key: 'tier', value: 'Silver', changeMessage: expect.stringContaining('%@') })]);
    // No personal data on the card beyond the member reference.
    expect(JSON.stringify(json)).not.toContain('Ada');
  });

  it('lists all five field groups of the store card, the unused one empty (the pass.json devices have always had)', () => {
    const card = applePassJson(input).storeCard as Record<string, unknown[]>;
    expect(Object.keys(card)).toEqual(['headerFields', 'primaryFields', 'secondaryFields', 'auxiliaryFields', 'backFields']);
    expect(card.auxiliaryFields).toEqual([]);
  });

  it('refuses an authentication token shorter than 16 characters', () => {
    expect(() => applePassJson({ ...input, authenticationToken: 'short' })).toThrow(/16/);
  });

  it('bundles pass.json with icon and logo images that are valid PNGs of the brand colour', () => {
    const files = applePassFiles(input);
    expect(Object.keys(files).sort()).toEqual(['icon.png', 'icon@2x.png', 'logo.png', 'logo@2x.png', 'pass.json']);
    const png = files['icon.png']!;
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.readUInt32BE(16)).toBe(29);
    expect(png.readUInt32BE(20)).toBe(29);
    const idatLength = png.readUInt32BE(33);
    const raw = inflateSync(png.subarray(41, 41 + idatLength));
    expect([...raw.subarray(1, 4)]).toEqual([...DEFAULT_COLOURS.background]);
    expect(raw.length).toBe(29 * (1 + 29 * 3));
  });

  it('png writer: dimensions and size', () => {
    const png = solidPng(3, 2, [1, 2, 3]);
    expect(png.readUInt32BE(16)).toBe(3);
    expect(png.readUInt32BE(20)).toBe(2);
  });
});

describe('content fingerprint', () => {
  it('changes with points, tier, status and branding, and not otherwise', () => {
    const base = contentHash(content, branding);
    expect(contentHash({ ...content }, { ...branding })).toBe(base);
    expect(contentHash({ ...content, points: 641 }, branding)).not.toBe(base);
    expect(contentHash({ ...content, tierKey: 'gold', tierName: 'Gold' }, branding)).not.toBe(base);
    expect(contentHash({ ...content, active: false }, branding)).not.toBe(base);
    expect(contentHash(content, { ...branding, name: 'Other' })).not.toBe(base);
    expect(hexRgb([17, 24, 39])).toBe('#111827');
  });
});

describe("Apple's update tags and Last-Modified", () => {
  it('moves the modification time in whole seconds, strictly forward', () => {
    expect(nextLastModified(undefined, 1_700_000_000_123)).toBe(1_700_000_000_000);
    expect(nextLastModified(1_700_000_000_000, 1_700_000_000_900)).toBe(1_700_000_001_000);
    expect(nextLastModified(1_700_000_000_000, 1_700_000_005_500)).toBe(1_700_000_005_000);
    // A clock behind the stored time still moves forward.
    expect(nextLastModified(1_700_000_010_000, 1_700_000_000_000)).toBe(1_700_000_011_000);
  });

  it('lists every serial without a tag, only those changed after it with one, and nothing (204) when none changed', () => {
    const passes = [
      { serial: 'b', lastModified: 2000 },
      { serial: 'a', lastModified: 5000 },
    ];
    expect(updatedSince(passes, undefined)).toEqual({ serialNumbers: ['a', 'b'], lastUpdated: '5000' });
    expect(updatedSince(passes, '2000')).toEqual({ serialNumbers: ['a'], lastUpdated: '5000' });
    expect(updatedSince(passes, '5000')).toBeUndefined();
    expect(updatedSince([], undefined)).toBeUndefined();
    // The tag never goes backwards, even when the device sends a later one than we know.
    expect(updatedSince([{ serial: 'c', lastModified: 9000 }], '8000')).toEqual({ serialNumbers: ['c'], lastUpdated: '9000' });
  });

  it('answers 304 exactly for an If-Modified-Since at or after the modification time', () => {
    const lm = 1_700_000_000_000;
    expect(notModified(lm, httpDate(lm))).toBe(true);
    expect(notModified(lm, httpDate(lm + 1000))).toBe(true);
    expect(notModified(lm, httpDate(lm - 1000))).toBe(false);
    expect(notModified(lm, undefined)).toBe(false);
    expect(notModified(lm, 'not a date')).toBe(false);
  });
});

describe('ApplePass tokens', () => {
  it('parses only "ApplePass <token>" with one space', () => {
    expect(applePassToken(`ApplePass ${'t'.repeat(20)}`)).toBe('t'.repeat(20));
    expect(applePassToken(`applepass ${'t'.repeat(20)}`)).toBe('t'.repeat(20));
    for (const bad of [
      undefined,
      '',
      'ApplePass',
      `ApplePass  ${'t'.repeat(20)}`,
      `Bearer ${'t'.repeat(20)}`,
      'ApplePass short',
      `ApplePass${'t'.repeat(20)}`,
    ]) {
      expect(applePassToken(bad)).toBeUndefined();
    }
  });

  it('matches any stored digest and nothing else', () => {
    const hashes = [sha256Hex('first-token-0123456'), sha256Hex('second-token-012345')];
    expect(tokenMatches('first-token-0123456', hashes)).toBe(true);
    expect(tokenMatches('second-token-012345', hashes)).toBe(true);
    expect(tokenMatches('third-token-0123456', hashes)).toBe(false);
    expect(tokenMatches(undefined, hashes)).toBe(false);
    expect(tokenMatches('first-token-0123456', [])).toBe(false);
  });
});

describe('wallet push: which stream records matter, and coalescing', () => {
  const member = { entity: 'member', workspaceId: 'ws_1', id: 'mbr_1', balance: 10, tier: 'bronze', status: 'active' };

  it('a change of points, tier or status, or a removed member; not a profile edit or another entity', () => {
    const ref = { workspaceId: 'ws_1', memberId: 'mbr_1' };
    expect(changedMember('MODIFY', member, { ...member, balance: 11 })).toEqual(ref);
    expect(changedMember('MODIFY', member, { ...member, tier: 'silver' })).toEqual(ref);
    expect(changedMember('MODIFY', member, { ...member, status: 'unenrolled' })).toEqual(ref);
    expect(changedMember('REMOVE', member, undefined)).toEqual(ref);
    expect(changedMember('MODIFY', member, { ...member })).toBeUndefined();
    expect(changedMember('INSERT', undefined, member)).toBeUndefined();
    expect(changedMember('MODIFY', { ...member, entity: 'outbox' }, { ...member, entity: 'outbox', balance: 2 })).toBeUndefined();
    expect(changedMember('MODIFY', { balance: 1 }, { balance: 2 })).toBeUndefined();
  });

  it('coalesces a burst to one entry per member, in first-seen order', () => {
    const a = { workspaceId: 'ws_1', memberId: 'mbr_a' };
    const b = { workspaceId: 'ws_1', memberId: 'mbr_b' };
    const otherWs = { workspaceId: 'ws_2', memberId: 'mbr_a' };
    expect(coalesce([a, b, a, a, otherWs, b])).toEqual([a, b, otherWs]);
    expect(coalesce([])).toEqual([]);
  });

  it('carries the request id the member item recorded for its change (a removal carries none)', () => {
    const ref = { workspaceId: 'ws_1', memberId: 'mbr_1' };
    expect(changedMember('MODIFY', member, { ...member, balance: 11, lastRequestId: 'req-1' })).toEqual({ ...ref, requestId: 'req-1' });
    expect(changedMember('REMOVE', { ...member, lastRequestId: 'req-1' }, undefined)).toEqual(ref);
  });

  it("a coalesced burst carries the request id of the member's latest change", () => {
    const a1 = { workspaceId: 'ws_1', memberId: 'mbr_a', requestId: 'req-1' };
    const b = { workspaceId: 'ws_1', memberId: 'mbr_b', requestId: 'req-2' };
    const a3 = { workspaceId: 'ws_1', memberId: 'mbr_a', requestId: 'req-3' };
    const aNone = { workspaceId: 'ws_1', memberId: 'mbr_a' };
    expect(coalesce([a1, b, a3])).toEqual([a3, b]);
    // A change no request made (e.g. a scheduled one) is the latest: the push names no request.
    expect(coalesce([a1, aNone])).toEqual([aNone]);
  });

  it('accepts exactly the message the stream consumer sends', () => {
    expect(pushMessageSchema.safeParse({ workspaceId: 'ws_1', memberId: 'mbr_1' }).success).toBe(true);
    expect(pushMessageSchema.safeParse({ workspaceId: 'ws_1' }).success).toBe(false);
    expect(pushMessageSchema.safeParse({ workspaceId: 'ws_1', memberId: 'mbr_1', extra: 1 }).success).toBe(false);
    expect(pushMessageSchema.safeParse({ workspaceId: 'ws_1', memberId: 'mbr_1', requestId: 'req_1' }).success).toBe(true);
    expect(pushMessageSchema.safeParse({ workspaceId: 'ws_1', memberId: 'mbr_1', requestId: 'no spaces' }).success).toBe(false);
  });
});

describe('APNs answers', () => {
  it('removes the registration on 410 and on 400 BadDeviceToken / DeviceTokenNotForTopic', () => {
    expect(apnsOutcome(200, '')).toEqual({ kind: 'delivered' });
    expect(apnsOutcome(410, '{"reason":"Unregistered"}')).toMatchObject({ kind: 'unregistered', status: 410 });
    expect(apnsOutcome(400, '{"reason":"BadDeviceToken"}')).toMatchObject({ kind: 'unregistered', reason: 'BadDeviceToken' });
    expect(apnsOutcome(400, '{"reason":"DeviceTokenNotForTopic"}')).toMatchObject({ kind: 'unregistered' });
    expect(apnsOutcome(400, '{"reason":"BadTopic"}')).toMatchObject({ kind: 'failed' });
  });

  it('retries 429, 5xx and an expired provider token (minting a new one)', () => {
    expect(apnsOutcome(429, '{"reason":"TooManyRequests"}')).toMatchObject({ kind: 'retry' });
    expect(apnsOutcome(503, 'not json')).toMatchObject({ kind: 'retry', status: 503 });
    let renewed = false;
    expect(apnsOutcome(403, '{"reason":"ExpiredProviderToken"}', () => (renewed = true))).toMatchObject({ kind: 'retry' });
    expect(renewed).toBe(true);
    expect(apnsOutcome(403, '{"reason":"InvalidProviderToken"}')).toMatchObject({ kind: 'failed' });
  });
});

describe('Google loyalty objects', () => {
  it('ids, object and the patch of a change', () => {
    expect(googleClassId('3388', 'ws_1')).toBe('3388.ws_1');
    expect(googleObjectId('3388', 'wps_1')).toBe('3388.wps_1');
    const object = loyaltyObjectOf('3388', 'ws_1', 'wps_1', content);
    expect(object).toMatchObject({ id: '3388.wps_1', classId: '3388.ws_1', state: 'ACTIVE', accountId: 'mbr_1', loyaltyPoints: { balance: { int: 640 } } });
    expect(object.id).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(loyaltyObjectChanges({ ...content, active: false, points: 3 })).toEqual({
      state: 'INACTIVE',
      loyaltyPoints: { label: 'Points', balance: { int: 3 } },
      textModulesData: [{ id: 'tier', header: 'Tier', body: 'Silver' }],
    });
  });
});

describe('the wallet secret', () => {
  it('takes either platform alone, and refuses a malformed document', async () => {
    const { parseWalletSecret } = await import('../../../../shared/platform/adapters/wallet/credentials');
    const google = { issuerId: '3388000000012345678', serviceAccount: { client_email: 'a@b.iam.gserviceaccount.com', private_key: 'KEY' } };
    expect(parseWalletSecret(JSON.stringify({ google }))).toEqual({ google });
    // The placeholder CDK creates configures nothing.
    expect(parseWalletSecret(JSON.stringify({ placeholder: 'x' }))).toEqual({});
    expect(() => parseWalletSecret(JSON.stringify({ google: { ...google, issuerId: 'not digits' } }))).toThrow();
    expect(() => parseWalletSecret(JSON.stringify({ apple: { passTypeIdentifier: 'p', apns: { mode: 'token' } } }))).toThrow();
    expect(() => parseWalletSecret('not json')).toThrow();
  });
});

describe('wallet clients per process', () => {
  it('a function without a signer (the push worker) does not hand its clients to one that signs: the local runtime runs both in one process', async () => {
    Object.assign(process.env, { STAGE: 'local', TABLE_NAME: 'unused', AWS_REGION: 'eu-west-1', WALLET_PLATFORMS: 'apple' });
    const { provideAdapters } = await import('../../../../shared/platform/adapters/provided');
    const { walletFromConfig } = await import('../../../../shared/platform/adapters/wallet');
    const apple = {
      passTypeIdentifier: 'pass.test',
      teamIdentifier: 'TEAM',
      wwdrPem: '',
      signerCertPem: '',
      signerKeyPem: '',
      apns: { kind: 'token', keyId: 'K', teamId: 'T', keyPem: '' },
    };
    provideAdapters({ walletCredentials: { load: async () => ({ apple }) as never } });
    const signature = Buffer.from('signed');
    const signing = (_: unknown) => ({ sign: async () => signature });
    await expect((await walletFromConfig().apple())!.signer.sign({} as never)).rejects.toThrow('signs no passes');
    expect(await (await walletFromConfig(signing).apple())!.signer.sign({} as never)).toBe(signature);
    expect(walletFromConfig(signing)).toBe(walletFromConfig(signing));
  });
});

describe('ApplePass tokens that open a pass (the newest five, and any within the 10-minute grace)', () => {
  const now = 1_800_000_000;
  const hashes = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'h7'];
  const at = (times: Record<string, number>) => (h: string) => times[h];

  it('keeps exactly the newest five once every token is past the grace, or has no issue time', () => {
    expect(liveTokenHashes(hashes, () => now - 3600, now)).toEqual(['h3', 'h4', 'h5', 'h6', 'h7']);
    expect(liveTokenHashes(hashes, () => undefined, now)).toEqual(['h3', 'h4', 'h5', 'h6', 'h7']);
    expect(liveTokenHashes(hashes.slice(0, 5), () => now - 3600, now)).toEqual(['h1', 'h2', 'h3', 'h4', 'h5']);
    expect(liveTokenHashes(hashes.slice(0, 6), () => now - 3600, now)).toEqual(['h2', 'h3', 'h4', 'h5', 'h6']);
    expect(liveTokenHashes([], () => now, now)).toEqual([]);
  });

  it('keeps an older one issued within the grace: 600 s ago still, 601 s ago no more', () => {
    expect(liveTokenHashes(hashes, () => now, now)).toEqual(hashes);
    expect(liveTokenHashes(hashes, at({ h1: now - 600, h2: now - 601 }), now)).toEqual(['h1', 'h3', 'h4', 'h5', 'h6', 'h7']);
    expect(liveTokenHashes(hashes, at({ h2: now - 1 }), now)).toEqual(['h2', 'h3', 'h4', 'h5', 'h6', 'h7']);
  });
});

describe('the .pkpass signer (node:crypto, no pass library)', () => {
  let dir: string;
  let apple: AppleWalletCredentials;
  beforeAll(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'pkpass-signer-')), 'wallet');
    ensureWalletCredentials(dir);
    const file = (name: string) => readFileSync(join(dir, name), 'utf8');
    apple = {
      passTypeIdentifier: 'pass.test',
      teamIdentifier: 'TEAM',
      wwdrPem: file(WALLET_FILES.wwdr),
      signerCertPem: file(WALLET_FILES.signerCert),
      signerKeyPem: file(WALLET_FILES.signerKey),
    } as AppleWalletCredentials;
  });

  it('encodes object identifiers (multi-byte arcs included) and the signing time in DER', () => {
    expect(oid('1.2.840.113549.1.7.2').toString('hex')).toBe('06092a864886f70d010702');
    expect(oid('1.3.14.3.2.26').toString('hex')).toBe('06052b0e03021a');
    expect(oid('2.5.4.3').toString('hex')).toBe('0603550403');
    expect(utcTime(new Date('2026-01-02T03:04:05.900Z'))).toEqual(Buffer.concat([Buffer.from([0x17, 13]), Buffer.from('260102030405Z')]));
  });

  it('zips the files stored, in the given order, each with its CRC-32 and no timestamp', () => {
    const big = Buffer.alloc(70_000, 7);
    const zip = storedZip([
      ['pass.json', Buffer.from('{"a":1}')],
      ['dir/ü.png', big],
    ]);
    const { files } = unpackPass(zip);
    expect(Object.keys(files)).toEqual(['pass.json', 'dir/ü.png']);
    expect(files['pass.json']!.toString()).toBe('{"a":1}');
    expect(files['dir/ü.png']!.equals(big)).toBe(true);
    // Local header: signature, version 1.0, no flags, stored, time and date 0, then the CRC-32.
    expect(zip.subarray(0, 14).toString('hex')).toBe('504b03040a000000000000000000');
    expect(zip.readUInt32LE(14)).toBe(crc32(Buffer.from('{"a":1}')));
    expect(zip.readUInt32LE(18)).toBe(7);
    // End of central directory: two entries, the directory right after the last entry's data.
    const end = zip.subarray(zip.length - 22);
    expect(end.readUInt32LE(0)).toBe(0x06054b50);
    expect([end.readUInt16LE(8), end.readUInt16LE(10)]).toEqual([2, 2]);
    expect(end.readUInt32LE(16) + end.readUInt32LE(12)).toBe(zip.length - 22);
  });

  it('names the signer by the issuer and serial number of its certificate', () => {
    const cert = new X509Certificate(apple.signerCertPem);
    const [issuer, serial] = childrenOf(issuerAndSerialNumber(cert.raw));
    // INTEGER: the serial, with a leading zero byte when its first bit is set.
    expect(serial![0]).toBe(0x02);
    expect(serial!.subarray(2).toString('hex').replace(/^00/, '')).toBe(cert.serialNumber.toLowerCase());
    // The issuer is the WWDR certificate's subject, byte for byte.
    expect(issuer![0]).toBe(0x30);
    expect(new X509Certificate(apple.wwdrPem).raw.includes(issuer!)).toBe(true);
    expect(cert.issuer).toBe(new X509Certificate(apple.wwdrPem).subject);
  });

  it('signs a manifest of every file that openssl verifies against the WWDR, files and manifest in the pass', async () => {
    const files = applePassFiles(input);
    const pass = unpackPass(await new PkpassSigner(apple).sign(files));
    expect(Object.keys(pass.files)).toEqual([...Object.keys(files), 'manifest.json', 'signature']);
    for (const [name, bytes] of Object.entries(files)) expect(pass.files[name]!.equals(bytes), name).toBe(true);
    const manifest = JSON.parse(pass.files['manifest.json']!.toString());
    expect(Object.keys(manifest)).toEqual(Object.keys(files));
    expect(manifest['icon.png']).toBe(sha1Hex(files['icon.png']!));
    expect(verifyPassSignature(pass.dir, join(dir, WALLET_FILES.wwdr))).toMatchObject({ ok: true });
    writeFileSync(join(pass.dir, 'other.json'), JSON.stringify({ ...manifest, 'pass.json': '0'.repeat(40) }));
    expect(verifyPassSignature(pass.dir, join(dir, WALLET_FILES.wwdr), 'other.json')).toMatchObject({
      ok: false,
      output: expect.stringMatching(/digest failure/),
    });
  });

  it('takes a passphrase-protected key, and refuses a key that is not RSA', async () => {
    const encrypted = createPrivateKey(apple.signerKeyPem).export({
      type: 'pkcs8',
      format: 'pem',
      cipher: 'aes-256-cbc',
      passphrase: 'secret words',
    }) as string;
    const signed = unpackPass(
      await new PkpassSigner({ ...apple, signerKeyPem: encrypted, signerKeyPassphrase: 'secret words' }).sign({ 'pass.json': Buffer.from('{}') }),
    );
    expect(verifyPassSignature(signed.dir, join(dir, WALLET_FILES.wwdr))).toMatchObject({ ok: true });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
    await expect(new PkpassSigner({ ...apple, signerKeyPem: ec }).sign({ 'pass.json': Buffer.from('{}') })).rejects.toThrow('must be RSA, not ec');
  });
});

const sha1Hex = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/** The elements of a DER SEQUENCE whose lengths fit in one byte (issuer names and serial numbers do). */
function childrenOf(der: Buffer): Buffer[] {
  const children: Buffer[] = [];
  for (let at = 2; at < der.length; ) {
    expect(der[at + 1]! < 0x80, 'short-form length').toBe(true);
    children.push(der.subarray(at, at + 2 + der[at + 1]!));
    at += 2 + der[at + 1]!;
  }
  return children;
}
