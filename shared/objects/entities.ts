/**
 * Custom object types and their records as the table stores them. Plain declarations below the
 * domain, so the data layer can name them without importing it. A stored field definition is the
 * validated definition itself: the domain's field schema is checked against `FieldDefRecord` at
 * compile time (`SameShape`), so this stays the one description of what is stored.
 */

export const FIELD_TYPES = ['text', 'number', 'boolean', 'date', 'datetime', 'enum', 'email', 'url', 'member_ref'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldDefRecord {
  key: string;
  type: FieldType;
  required: boolean;
  options?: string[];
  label?: string;
  personal?: boolean;
}

export interface ObjectTypeRecord {
  workspaceId: string;
  type: string;
  label: string;
  description: string | null;
  fields: FieldDefRecord[];
  /** The field whose value orders `title_asc` (given, or the first text field). */
  titleField: string | null;
  status: 'draft' | 'published';
  apiVisible: boolean;
  /** Live (not deleted) records, kept in each record's own transaction. */
  recordCount?: number;
  /**
   * Every live record has its value entries (the type was created, or had no live record, since
   * they exist), so filtered lists may read them. Without it, filtered lists query the sort index.
   */
  valueIndex?: boolean;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface RecordItem {
  id: string;
  workspaceId: string;
  type: string;
  data: Record<string, unknown>;
  /** Lower-cased copies of the searchable fields, kept field by field like `data`. */
  search: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  /**
   * Moved on by every write that moves the record's value entries (title, indexed fields, delete),
   * which applies only at the revision it read. Absent on records from before revisions.
   */
  rev?: number;
}
