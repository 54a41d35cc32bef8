import { capturesContract } from '../../shared/contracts/captures';
import { createCapture, type CaptureResult } from '../../shared/domain/captures/service';
import { defineArea } from '../../shared/http/area';
import { recorder } from '../../shared/http/idempotency';
import { principalOf } from '../../shared/http/principal';
import { created, ok, type Reply } from '../../shared/http/responses';

const captureReply = (r: CaptureResult): Reply => (r.duplicate ? ok(r.capture) : created(r.capture));

export const handler = defineArea('captures', capturesContract, {
  'POST /api/v2/captures': async ({ principal, body, context }) =>
    captureReply(await createCapture(principalOf(principal).workspaceId, body, { seal: recorder(context, captureReply) })),
});
