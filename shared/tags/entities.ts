/**
 * Tags as the table stores them: the workspace's tag items and a member's tag items. Plain
 * declarations below the domain, so the data layer can name them without importing it. Both are
 * answered as stored: the domain's answer schemas are checked against them at compile time
 * (`SameShape`), so these stay the one description of what is stored.
 */

export interface TagRecord {
  key: string;
  /** Members that carry the tag now. */
  memberCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface MemberTagRecord {
  key: string;
  taggedAt: string;
}
