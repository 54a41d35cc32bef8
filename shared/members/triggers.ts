import type { TransactStep } from '../platform/data/transactions';

/** A campaign trigger a member's change makes occur (`key` names the occurrence: a campaign grants it once). */
export interface TriggerOccurred {
  type: 'member_created' | 'tag_added';
  key: string;
  /** tag_added: the tags this tagging added. */
  tags?: readonly string[];
}

/** What a change owes a member for a trigger it makes occur, and how to pay it after the change commits. */
export interface OwedGrants {
  /** The record of what is owed, for the change's own transaction (none without a live campaign of the trigger). */
  steps: TransactStep[];
  /** After the change committed: grants and clears the record; a failure is logged, never answered (the change stands). */
  settle(): Promise<void>;
}

export const NOTHING_OWED: OwedGrants = { steps: [], settle: async () => undefined };

/**
 * How a member's creation or tagging tells the campaigns what occurred. The campaigns sit above
 * members and tags: they fill this port at the composition root (the handlers pass
 * `campaigns/hooks.ts`), so neither area imports them, and a caller cannot forget it (it is a
 * required argument).
 */
export type MemberTriggers = (workspaceId: string, memberId: string, occurrence: TriggerOccurred) => Promise<OwedGrants>;
