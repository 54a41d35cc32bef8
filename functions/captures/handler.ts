import { capturesArea, createCapture, type CaptureResult } from '../../shared/captures';
import { memberTriggers } from '../../shared/campaigns';
import { defineArea } from '../../shared/http/area';
import { sealed } from '../../shared/http/operation';
import { principalOf } from '../../shared/http/principal';
import { created, ok, type Reply } from '../../shared/http/responses';

const captureReply = (r: CaptureResult): Reply => (r.duplicate ? ok(r.capture) : created(r.capture));

export const handler = defineArea(capturesArea, {
  createCapture: sealed(captureReply, ({ principal, body }, write) => createCapture(principalOf(principal).workspaceId, body, memberTriggers, write)),
});
