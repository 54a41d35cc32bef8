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
}
