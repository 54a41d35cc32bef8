import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, windowBitsFor } from '../../../../../shared/platform/data/idempotency-records';

/** The window a Brotli stream declares in its first bits (RFC 7932, 9.1). */
function streamWindowBits(bytes: Uint8Array): number {
  const bits = (from: number, count: number) => {
    let v = 0;
    for (let i = 0; i < count; i++) v |= ((bytes[(from + i) >> 3]! >> ((from + i) & 7)) & 1) << i;
    return v;
  };
  if (bits(0, 1) === 0) return 16;
  const n = bits(1, 3);
  if (n !== 0) return 17 + n;
  const m = bits(4, 3);
  return m === 0 ? 17 : 8 + m;
}

describe('an answer compressed for its idempotency record', () => {
  it('takes the least window that holds it, within what Brotli allows', () => {
    expect(windowBitsFor(0)).toBe(10);
    expect(windowBitsFor(1023)).toBe(10);
    expect(windowBitsFor(1024)).toBe(11);
    expect(windowBitsFor(2047)).toBe(11);
    expect(windowBitsFor(2048)).toBe(12);
    expect(windowBitsFor(100_000)).toBe(17);
    expect(windowBitsFor(2 ** 24)).toBe(24);
    expect(windowBitsFor(2 ** 30)).toBe(24);
  });

  it('declares that window in the stream (an order answer of a kilobyte: not the default 4 MiB) and decodes to the text', () => {
    const answer = JSON.stringify({ order: { id: 'ord_1', items: Array.from({ length: 8 }, (_, i) => ({ sku: `SKU-${i}`, quantity: i, unitPrice: 9.95 })) } });
    expect(Buffer.byteLength(answer)).toBeLessThan(1024);
    const stored = compress(answer);
    expect(streamWindowBits(stored)).toBe(10);
    expect(brotliDecompressSync(stored).toString()).toBe(answer);
  });

  it('keeps a large answer whole', () => {
    const answer = 'x'.repeat(50_000) + JSON.stringify({ tail: Array.from({ length: 2000 }, (_, i) => i) });
    const stored = compress(answer);
    expect(streamWindowBits(stored)).toBe(windowBitsFor(Buffer.byteLength(answer)));
    expect(brotliDecompressSync(stored).toString()).toBe(answer);
  });
});
