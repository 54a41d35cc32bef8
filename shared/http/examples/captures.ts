import type { capturesArea } from '../../captures';
import type { AreaExamples } from './types';
import { capture, ids } from './world';

export const capturesExamples: AreaExamples<typeof capturesArea> = {
  createCapture: {
    summary: 'A sign-up on the in-store tablet, referred by Ada',
    request: {
      email: 'alan.turing@example.com',
      firstName: 'Alan',
      lastName: 'Turing',
      source: 'instore-tablet',
      consents: { marketingEmail: true, marketingSms: false, terms: true },
      attributes: { store: 'BER-01' },
      referralCode: 'ADA7K3QX',
    },
    responses: {
      201: { data: capture },
      // The same person again: matched, nothing created.
      200: {
        data: {
          ...capture,
          id: 'cap_01jpz8z4c6e8g0j2m4p6s8v0xy',
          memberOutcome: 'matched',
          matchedBy: 'email',
          referral: null,
          createdAt: '2026-03-21T09:12:00.000Z',
          memberId: ids.secondMember,
        },
      },
    },
  },
};
