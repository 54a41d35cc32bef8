import type { FieldDef } from './definitions';

export interface ObjectTypeRecord {
  workspaceId: string;
  type: string;
  label: string;
  description: string | null;
  fields: FieldDef[];
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
