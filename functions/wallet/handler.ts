import { walletFromConfig } from '../../shared/platform/adapters/wallet';
import { walletArea, getWalletBranding, putWalletBranding } from '../../shared/wallet';
import * as apple from '../../shared/wallet';
import { defineArea } from '../../shared/http/area';
import { auditOf, principalOf } from '../../shared/http/principal';
import { noContent, ok, type Reply } from '../../shared/http/responses';
import { logger } from '../../shared/platform/observability/logger';

const empty = (status: number): Reply => ({ status });

/** Signs no pass (that is the wallet-passes area): its wallet clients come without the pass signer. */
export const handler = defineArea(walletArea, {
  registerPassDevice: async ({ params, body, headers }) => {
    const outcome = await apple.registerDevice(walletFromConfig(), { ...params, pushToken: body.pushToken, authorization: headers.authorization });
    return empty(outcome === 'created' ? 201 : 200);
  },
  unregisterPassDevice: async ({ params, headers }) => {
    await apple.unregisterDevice(walletFromConfig(), { ...params, authorization: headers.authorization });
    return empty(200);
  },
  listUpdatedPasses: async ({ params, query }) => {
    const updated = await apple.updatedSerials(walletFromConfig(), { ...params, passesUpdatedSince: query.passesUpdatedSince });
    return updated ? { status: 200, body: updated } : noContent();
  },
  getWalletBranding: async ({ principal }) => ok(await getWalletBranding(principalOf(principal).workspaceId)),
  putWalletBranding: async (input) => ok(await putWalletBranding(principalOf(input.principal).workspaceId, input.body, auditOf(input))),
  logPassDevice: async ({ body }) => {
    for (const line of apple.deviceLogLines(body.logs)) logger.info('wallet.device_log', { event: 'wallet.device_log', line });
    return empty(200);
  },
});
