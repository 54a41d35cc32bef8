import type { membersArea } from '../members';
import type { AreaExamples } from './types';
import * as W from './world';

export const membersExamples: AreaExamples<typeof membersArea> = {
  listMembers: {
    query: { email: "ada.lovelace@example.com", externalId: "TODO_externalId", tier: "TODO_tier", status: "active", tag: "TODO_tag", q: "TODO_q" },
    responses: {
      200: {
        data: [W.member],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  createMember: {
    request: {
        email: "ada.lovelace@example.com",
        externalId: "TODO_externalId",
        firstName: "TODO_firstName",
        lastName: "TODO_lastName",
        phone: "TODO_phone",
        birthDate: "TODO_birthDate",
        customAttributes: {},
      },
    responses: {
      201: {
        data: W.member,
      },
    },
  },
  upsertMembers: {
    request: {
      members: [{}],
    },
    responses: {
      200: {
        data: {
          results: [{
              index: 1,
              outcome: "created",
              memberId: "mbr_01jpz8k3m2q7v5x9c4t6r8w2ya",
              error: {
                  code: "TODO_code",
                  message: "TODO_message",
                  details: [{}],
                },
            }],
          summary: {
            created: 1,
            updated: 1,
            unchanged: 1,
            failed: 1,
          },
        },
      },
    },
  },
  getMember: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.member,
      },
    },
  },
  updateMember: {
    request: {
      email: "ada.lovelace@example.com",
      externalId: "TODO_externalId",
      firstName: "TODO_firstName",
      lastName: "TODO_lastName",
      phone: "TODO_phone",
      birthDate: "TODO_birthDate",
      customAttributes: {},
      status: "active",
    },
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.member,
      },
    },
  },
  getMemberPoints: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: {
          balance: 120,
          pending: 1,
          lifetime: 1,
          entries: [W.ledgerEntry],
        },
        nextCursor: "TODO_nextCursor",
      },
    },
  },
  changeMemberPoints: {
    request: {
      type: "earn",
      amount: 1,
      reason: "TODO_reason",
    },
    params: { id: "TODO_id" },
    responses: {
      201: {
        data: {
          entry: W.ledgerEntry,
          points: {
            balance: 120,
            pending: 1,
            lifetime: 1,
          },
          tier: "TODO_tier",
        },
      },
    },
  },
  getMemberTier: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: W.tierStatus,
      },
    },
  },
  listMemberReceipts: {
    params: { id: "TODO_id" },
    responses: {
      200: {
        data: [W.order],
        nextCursor: "TODO_nextCursor",
      },
    },
  },
};
