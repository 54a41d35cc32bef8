import { trackingArea } from '../../shared/tracking';
import * as tracking from '../../shared/tracking';
import { defineArea } from '../../shared/http/area';
import { principalOf } from '../../shared/http/principal';
import { ok } from '../../shared/http/responses';

export const handler = defineArea(trackingArea, {
  trackEvents: async ({ principal, body }) => ok(await tracking.trackEvents(principalOf(principal).workspaceId, body.events)),
  getTrackingStats: async ({ principal, query }) => ok(await tracking.stats(principalOf(principal).workspaceId, query)),
});
