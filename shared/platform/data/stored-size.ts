import { config } from '../config';
import { attributeSizes, itemSize } from './item-size';
import { validationFailed } from '../errors';

export type StoredDocument = keyof typeof config.storage.documentBudgetBytes;

/** `objectRecord` -> `object record`. */
const labelOf = (kind: StoredDocument): string => kind.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);

/** Where a refusal points: the fields of the request to name the largest of, and their prefix there. */
export interface Blame {
  fields: object;
  /** Prefix of those fields in the request (`data.` for a record's values). */
  at: string;
}

/**
 * Refuses a document larger than its budget (`config.storage.documentBudgetBytes`) before anything
 * is written: 422 VALIDATION_FAILED naming the largest field of `blame` (by default the document's
 * own largest field). Schema limits count characters and entries; this counts what the store will
 * hold, multi-byte characters and attribute names included.
 */
export function refuseOversized(document: object, kind: StoredDocument, blame: Blame = { fields: document, at: '' }): void {
  const budget = config.storage.documentBudgetBytes[kind];
  const bytes = itemSize(document);
  if (bytes <= budget) return;
  const largest = attributeSizes(blame.fields)[0] ?? { name: '', bytes: 0 };
  throw validationFailed([
    {
      in: 'body',
      field: largest.name ? `${blame.at}${largest.name}` : blame.at.replace(/\.$/, '') || 'body',
      message: `too large to store: the ${labelOf(kind)} would take ${bytes} bytes, over its limit of ${budget}; this is its largest part (${largest.bytes} bytes)`,
    },
  ]);
}
