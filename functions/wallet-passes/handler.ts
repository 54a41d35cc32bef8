import { walletFromConfig as walletServices } from '../../shared/platform/adapters/wallet/index';
import { PkpassSigner } from '../../shared/platform/adapters/wallet/pkpass-signer';
import type { AppleWalletCredentials } from '../../shared/platform/ports/wallet';
import { runtimeConfig } from '../../shared/platform/config/index';
import { walletPassesArea, issuePass, httpDate } from '../../shared/wallet';
import * as apple from '../../shared/wallet';
import { defineArea } from '../../shared/http/area';
import { consumerOf } from '../../shared/http/principal';
import type { Reply } from '../../shared/http/responses';

const PKPASS = 'application/vnd.apple.pkpass';
/** The only function that signs passes (node:crypto: manifest, PKCS#7 signature, zip). */
const pkpassSigner = (apple: AppleWalletCredentials) => new PkpassSigner(apple);
const walletFromConfig = () => walletServices(pkpassSigner);

export const handler = defineArea(walletPassesArea, {
  issueWalletPass: async ({ body, context }) => {
    const issued = await issuePass(walletFromConfig(), consumerOf(context), body.platform, runtimeConfig().PUBLIC_BASE_URL);
    if (issued.platform === 'google') return { status: 200, body: { saveUrl: issued.saveUrl } };
    return {
      status: 200,
      headers: { 'content-disposition': `attachment; filename="loyalty-${issued.serial}.pkpass"` },
      raw: { contentType: PKPASS, bytes: issued.file },
    };
  },
  getLatestPass: async ({ params, headers }): Promise<Reply> => {
    const latest = await apple.latestPass(walletFromConfig(), {
      ...params,
      authorization: headers.authorization,
      ifModifiedSince: headers['if-modified-since'],
      publicBaseUrl: runtimeConfig().PUBLIC_BASE_URL,
    });
    const lastModified = { 'last-modified': httpDate(latest.lastModified) };
    if (latest.notModified) return { status: 304, headers: lastModified };
    return { status: 200, headers: lastModified, raw: { contentType: PKPASS, bytes: latest.file } };
  },
});
