import { walletFromConfig as walletServices } from '../../shared/adapters/wallet';
import { PassKitSigner } from '../../shared/adapters/wallet/pkpass-signer';
import type { AppleWalletCredentials } from '../../shared/ports/wallet';
import { runtimeConfig } from '../../shared/config';
import { walletArea } from '../../shared/contracts/wallet';
import * as apple from '../../shared/domain/wallet/apple-web-service';
import { getWalletBranding, putWalletBranding } from '../../shared/domain/wallet/branding';
import { issuePass } from '../../shared/domain/wallet/service';
import { httpDate } from '../../shared/domain/wallet/updates';
import { defineArea } from '../../shared/http/area';
import { auditOf, consumerOf, principalOf } from '../../shared/http/principal';
import { noContent, ok, type Reply } from '../../shared/http/responses';
import { logger } from '../../shared/observability/logger';

const PKPASS = 'application/vnd.apple.pkpass';
/** This function signs passes: the signer is passkit-generator. */
const passKitSigner = (apple: AppleWalletCredentials) => new PassKitSigner(apple);
const walletFromConfig = () => walletServices(passKitSigner);
const empty = (status: number, headers?: Record<string, string>): Reply => ({ status, ...(headers ? { headers } : {}) });

export const handler = defineArea(walletArea, {
  issueWalletPass: async ({ body, context }) => {
    const issued = await issuePass(walletFromConfig(), consumerOf(context), body.platform, runtimeConfig().PUBLIC_BASE_URL);
    if (issued.platform === 'google') return { status: 200, body: { saveUrl: issued.saveUrl } };
    return {
      status: 200,
      headers: { 'content-disposition': `attachment; filename="loyalty-${issued.serial}.pkpass"` },
      raw: { contentType: PKPASS, bytes: issued.file },
    };
  },
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
  getLatestPass: async ({ params, headers }) => {
    const latest = await apple.latestPass(walletFromConfig(), {
      ...params,
      authorization: headers.authorization,
      ifModifiedSince: headers['if-modified-since'],
      publicBaseUrl: runtimeConfig().PUBLIC_BASE_URL,
    });
    const lastModified = { 'last-modified': httpDate(latest.lastModified) };
    if (latest.notModified) return empty(304, lastModified);
    return { status: 200, headers: lastModified, raw: { contentType: PKPASS, bytes: latest.file } };
  },
  getWalletBranding: async ({ principal }) => ok(await getWalletBranding(principalOf(principal).workspaceId)),
  putWalletBranding: async (input) => ok(await putWalletBranding(principalOf(input.principal).workspaceId, input.body, auditOf(input))),
  logPassDevice: async ({ body }) => {
    for (const line of apple.deviceLogLines(body.logs)) logger.info('wallet.device_log', { event: 'wallet.device_log', line });
    return empty(200);
  },
});
