import { createHash, createPrivateKey, type KeyObject, sign, X509Certificate } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { AppleWalletCredentials, WalletSigner } from '../../ports/wallet';

/**
 * A `.pkpass` built with `node:crypto` alone: manifest.json (SHA-1 of every file), its detached
 * PKCS#7 signature, and the files in a stored zip. The same structure passkit-generator produced
 * with node-forge (SHA-1 digest; content type, message digest and signing time signed; the WWDR
 * and pass-type certificates included), without its 460 KiB of node-forge and joi in the bundle.
 */

// DER, just what a CMS SignedData needs.
function tlv(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const length: number[] = [];
  for (let n = body.length; n > 0; n = Math.floor(n / 256)) length.unshift(n % 256);
  const header = body.length < 0x80 ? [body.length] : [0x80 | length.length, ...length];
  return Buffer.concat([Buffer.from([tag, ...header]), body]);
}
const sequence = (...parts: Buffer[]) => tlv(0x30, ...parts);
const setOf = (...parts: Buffer[]) => tlv(0x31, ...parts);
const explicit0 = (...parts: Buffer[]) => tlv(0xa0, ...parts);
const NULL = Buffer.from([0x05, 0x00]);
const VERSION_1 = Buffer.from([0x02, 0x01, 0x01]);

export function oid(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) base128.unshift(0x80 | (v & 0x7f));
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

const OID = {
  sha1: oid('1.3.14.3.2.26'),
  rsaEncryption: oid('1.2.840.113549.1.1.1'),
  data: oid('1.2.840.113549.1.7.1'),
  signedData: oid('1.2.840.113549.1.7.2'),
  contentType: oid('1.2.840.113549.1.9.3'),
  messageDigest: oid('1.2.840.113549.1.9.4'),
  signingTime: oid('1.2.840.113549.1.9.5'),
};

/** UTCTime (YYMMDDHHMMSSZ), as RFC 5652 asks for a signing time between 1950 and 2049. */
export function utcTime(at: Date): Buffer {
  const two = (n: number) => String(n).padStart(2, '0');
  const text = `${two(at.getUTCFullYear() % 100)}${two(at.getUTCMonth() + 1)}${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}${two(at.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

/** The elements inside the DER value that starts at `at`: each as its whole encoding. */
function elementsOf(der: Buffer, at = 0): Buffer[] {
  const header = (p: number) => {
    const first = der[p + 1]!;
    if (first < 0x80) return { start: p + 2, end: p + 2 + first };
    let length = 0;
    for (let i = 0; i < (first & 0x7f); i++) length = length * 256 + der[p + 2 + i]!;
    const start = p + 2 + (first & 0x7f);
    return { start, end: start + length };
  };
  const outer = header(at);
  const elements: Buffer[] = [];
  for (let p = outer.start; p < outer.end; ) {
    const { end } = header(p);
    elements.push(der.subarray(p, end));
    p = end;
  }
  return elements;
}

/** The signer's issuer and serial number (RFC 5652 IssuerAndSerialNumber), read from its certificate. */
export function issuerAndSerialNumber(certificate: Buffer): Buffer {
  const tbs = elementsOf(elementsOf(certificate)[0]!);
  // tbsCertificate: [0] version (absent in v1), serialNumber, signature, issuer, ...
  const fields = tbs[0]![0] === 0xa0 ? tbs.slice(1) : tbs;
  return sequence(fields[2]!, fields[0]!);
}

interface SigningMaterial {
  key: KeyObject;
  signerCert: Buffer;
  wwdr: Buffer;
}

/** The detached PKCS#7 (CMS SignedData) signature of `content`, DER. */
export function detachedSignature(content: Buffer, material: SigningMaterial, at = new Date()): Buffer {
  const attribute = (type: Buffer, value: Buffer) => sequence(type, setOf(value));
  // DER orders a SET OF by its encodings; the signature covers the attributes as that SET.
  const attributes = [
    attribute(OID.contentType, OID.data),
    attribute(OID.messageDigest, tlv(0x04, createHash('sha1').update(content).digest())),
    attribute(OID.signingTime, utcTime(at)),
  ].sort(Buffer.compare);
  const signature = sign('sha1', setOf(...attributes), material.key);
  const signerInfo = sequence(
    VERSION_1,
    issuerAndSerialNumber(material.signerCert),
    sequence(OID.sha1, NULL),
    tlv(0xa0, ...attributes),
    sequence(OID.rsaEncryption, NULL),
    tlv(0x04, signature),
  );
  const signedData = sequence(VERSION_1, setOf(sequence(OID.sha1, NULL)), sequence(OID.data), explicit0(material.wwdr, material.signerCert), setOf(signerInfo));
  return sequence(OID.signedData, explicit0(signedData));
}

const uint = (n: number, bytes: 2 | 4) => {
  const b = Buffer.alloc(bytes);
  if (bytes === 2) b.writeUInt16LE(n);
  else b.writeUInt32LE(n);
  return b;
};

/** A zip of stored (uncompressed) entries, in the given order, without timestamps. */
export function storedZip(files: readonly (readonly [string, Buffer])[]): Buffer {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [path, data] of files) {
    const name = Buffer.from(path, 'utf8');
    // version needed 1.0, no flags, stored, time and date 0, CRC-32, sizes, name length, no extra field.
    const common = Buffer.concat([
      Buffer.from([10, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
      uint(crc32(data), 4),
      uint(data.length, 4),
      uint(data.length, 4),
      uint(name.length, 2),
      uint(0, 2),
    ]);
    central.push(Buffer.from([0x50, 0x4b, 0x01, 0x02, 20, 0]), common, Buffer.alloc(10), uint(offset, 4), name);
    const entry = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), common, name, data]);
    local.push(entry);
    offset += entry.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.concat([
    Buffer.from([0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0]),
    uint(files.length, 2),
    uint(files.length, 2),
    uint(directory.length, 4),
    uint(offset, 4),
    uint(0, 2),
  ]);
  return Buffer.concat([...local, directory, end]);
}

/** Signs pass bundles with one pass-type certificate: manifest, signature and zip, as Apple's Wallet reads them. */
export class PkpassSigner implements WalletSigner {
  private material: SigningMaterial | undefined;

  constructor(private readonly apple: AppleWalletCredentials) {}

  private signingMaterial(): SigningMaterial {
    if (this.material) return this.material;
    const { signerKeyPem, signerKeyPassphrase, signerCertPem, wwdrPem } = this.apple;
    const key = createPrivateKey(signerKeyPassphrase ? { key: signerKeyPem, passphrase: signerKeyPassphrase } : signerKeyPem);
    if (key.asymmetricKeyType !== 'rsa') throw new Error(`the pass-type key must be RSA, not ${key.asymmetricKeyType}`);
    this.material = { key, signerCert: new X509Certificate(signerCertPem).raw, wwdr: new X509Certificate(wwdrPem).raw };
    return this.material;
  }

  async sign(files: Record<string, Buffer>): Promise<Buffer> {
    const entries = Object.entries(files);
    const manifest = Buffer.from(JSON.stringify(Object.fromEntries(entries.map(([name, bytes]) => [name, createHash('sha1').update(bytes).digest('hex')]))));
    const signature = detachedSignature(manifest, this.signingMaterial());
    return storedZip([...entries, ['manifest.json', manifest], ['signature', signature]]);
  }
}
