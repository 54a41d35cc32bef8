/**
 * An item's size as DynamoDB counts it against its 400 KB limit ("Item sizes and formats" in the
 * DynamoDB developer guide): every attribute name and every value, strings and names as UTF-8
 * bytes, binaries by their length, a number by its significant digits, a boolean or null one byte,
 * and a list or map three bytes plus one per element besides its elements (a map's element names
 * count too). Where the guide says "approximately" this counts high (a negative number one byte
 * more), so a document measured within a budget also fits the store. Undefined values are left
 * out, as the document client removes them before writing.
 */

const MAP_OR_LIST_OVERHEAD = 3;
const PER_ELEMENT = 1;
const BOOLEAN_OR_NULL = 1;

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Significant digits of a finite number, its leading and trailing zeros dropped (`120.50` -> `1205`). */
function significantDigits(n: number): number {
  const digits = Math.abs(n).toExponential().replace(/e.*$/, '').replace('.', '');
  return digits.length;
}

/** One byte per two significant digits, one more, and one for the sign of a negative number. */
const numberSize = (n: number): number => Math.ceil(significantDigits(n) / 2) + 1 + (n < 0 ? 1 : 0);

/** The attributes a value of a map holds: its own fields, undefined ones left out. */
const definedEntries = (map: object): [string, unknown][] => Object.entries(map).filter(([, v]) => v !== undefined);

/** The size of one attribute value (its name not counted). */
export function valueSize(value: unknown): number {
  if (value === null || typeof value === 'boolean') return BOOLEAN_OR_NULL;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number') return numberSize(value);
  if (typeof value === 'bigint') return numberSize(Number(value));
  if (value instanceof Uint8Array) return value.byteLength;
  if (Array.isArray(value) || value instanceof Set) {
    const elements = [...value].filter((v) => v !== undefined);
    return elements.reduce((sum: number, v) => sum + PER_ELEMENT + valueSize(v), MAP_OR_LIST_OVERHEAD);
  }
  if (typeof value === 'object') {
    return definedEntries(value).reduce((sum, [name, v]) => sum + PER_ELEMENT + utf8(name) + valueSize(v), MAP_OR_LIST_OVERHEAD);
  }
  throw new TypeError(`a ${typeof value} is not stored`);
}

/** The size of a stored item (or of the attributes a document adds to one): names plus values. */
export function itemSize(item: object): number {
  return definedEntries(item).reduce((sum, [name, v]) => sum + utf8(name) + valueSize(v), 0);
}

/** Each top-level attribute's share of `itemSize`, the largest first. */
export function attributeSizes(item: object): { name: string; bytes: number }[] {
  return definedEntries(item)
    .map(([name, v]) => ({ name, bytes: utf8(name) + valueSize(v) }))
    .sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : 1));
}
