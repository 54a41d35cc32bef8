import { captureSchema, createCaptureBody } from './schemas';
import { dataOf } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

export const capturesArea = declareArea({
  area: 'captures',
  description: 'Leads from forms and widgets: a capture matches an existing member by e-mail or enrols a new one.',
  access: { table: 'readWrite', secrets: ['pageCursors'] },
  endpoints: {
    createCapture: {
      method: 'POST',
      path: '/api/v2/captures',
      auth: ['apiKey'],
      scope: 'members:write',
      summary: 'Record a lead from a form or widget; matches or creates the member',
      idempotent: true,
      body: createCaptureBody,
      responses: { 201: dataOf(captureSchema), 200: dataOf(captureSchema) },
      description:
        'Records a lead from a form or widget. The member is matched by e-mail (by phone only when the capture has no e-mail and the phone was captured before) ' +
        'or created (emits `member.created`); a matched member is not changed. Emits `capture.created`. ' +
        'A submission of the same identity (e-mail, else phone) and source within 10 minutes of the first answers 200 with that first capture and `duplicate: true`, and writes nothing. ' +
        'A valid `referralCode` links a member the capture creates to the ambassador; an unknown code does not fail the capture (`referral.outcome: unknown_code`).',
    },
  },
});
