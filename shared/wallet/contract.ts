import * as z from 'zod';
import { config } from '../platform/config';
import { TAG_PATTERN } from './updates';
import { brandingBody, brandingSchema } from './branding';
import { dataOf, errorBody } from '../platform/contract/contract';
import { declareArea } from '../platform/contract/endpoint';

const PKPASS = 'application/vnd.apple.pkpass';
/** Device library ids, pass type ids and serials: what Apple and we generate, nothing that needs escaping. */
const token = (max: number, what: string) =>
  z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9._-]{1,${max}}$`), `must be 1-${max} letters, digits, '.', '_' or '-'`)
    .describe(what);
const deviceId = token(128, "The device's library identifier");
const passTypeId = token(128, 'The pass type identifier');
const serial = token(64, "The pass's serial number");

const registrationParams = z.object({ deviceId, passTypeId, serial });

/**
 * The two calls that build a signed Apple pass: a function of their own, so that only it loads the
 * pass signer (shared/platform/adapters/wallet/pkpass-signer.ts, node:crypto) and the calls that answer
 * devices, branding and logs start without it.
 */
export const walletPassesArea = declareArea({
  area: 'wallet-passes',
  description:
    "The member's wallet card: issuing it (the signed Apple pass file, or a Google Wallet save link) and Apple's pass web service handing a " +
    'device the latest version of a pass.',
  access: { table: 'readWrite', walletCredentials: true },
  endpoints: {
    issueWalletPass: {
      method: 'POST',
      path: '/api/consumer/wallet/issue',
      auth: ['consumer'],
      summary: "Issue the signed-in member's wallet card",
      body: z.object({ platform: z.enum(['apple', 'google']).describe('apple: answers the .pkpass file; google: answers a save link') }),
      responses: {
        200: z
          .object({ saveUrl: z.string().describe('`https://pay.google.com/gp/v/save/<JWT>`: send the member there to save the card') })
          .meta({ id: 'GoogleWalletSaveLink' }),
        410: errorBody,
        501: errorBody,
      },
      binaryResponses: { 200: PKPASS },
      description:
        'Workspace and member come from the consumer session, never from the body. `apple`: the signed pass file (`' +
        PKPASS +
        '`, ' +
        '`Content-Disposition: attachment; filename="loyalty-<serial>.pkpass"`). `google`: `{ saveUrl }`. One pass per member and platform: ' +
        'issuing again answers the same serial. A platform without credentials answers 501 `WALLET_NOT_CONFIGURED` and writes nothing.',
    },
    getLatestPass: {
      method: 'GET',
      path: '/api/wallet/apple/v1/passes/{passTypeId}/{serial}',
      auth: ['applePass'],
      summary: 'The latest version of a pass',
      params: z.object({ passTypeId, serial }),
      responses: { 200: null, 304: null, 410: errorBody },
      binaryResponses: { 200: PKPASS },
      description:
        'The signed pass with `Last-Modified` (when its content last changed); 304 for an `If-Modified-Since` at or after it; 410 when its member is removed or unenrolled.',
    },
  },
});

export const walletArea = declareArea({
  area: 'wallet',
  description: "Apple's pass web service for devices (registration, changed serials, device logs) and the branding of the wallet cards.",
  access: { table: 'readWrite', walletCredentials: true },
  endpoints: {
    registerPassDevice: {
      method: 'POST',
      path: '/api/wallet/apple/v1/devices/{deviceId}/registrations/{passTypeId}/{serial}',
      auth: ['applePass'],
      summary: 'A device registers for updates of a pass',
      params: registrationParams,
      body: z.object({
        pushToken: z
          .string()
          .regex(/^[0-9A-Fa-f]{8,200}$/, 'must be the hexadecimal APNs device token')
          .describe('APNs device token'),
      }),
      responses: { 200: null, 201: null, 410: errorBody },
      description:
        "Apple's pass web service: 201 for a new registration, 200 for a known one. `Authorization: ApplePass <authenticationToken>`; 410 for a pass whose member is removed or unenrolled.",
    },
    unregisterPassDevice: {
      method: 'DELETE',
      path: '/api/wallet/apple/v1/devices/{deviceId}/registrations/{passTypeId}/{serial}',
      auth: ['applePass'],
      summary: 'A device stops updates of a pass',
      params: registrationParams,
      responses: { 200: null, 410: errorBody },
    },
    listUpdatedPasses: {
      method: 'GET',
      path: '/api/wallet/apple/v1/devices/{deviceId}/registrations/{passTypeId}',
      auth: ['public'],
      summary: "The serials of a device's passes changed since a tag",
      params: z.object({ deviceId, passTypeId }),
      query: z.object({ passesUpdatedSince: z.string().regex(TAG_PATTERN, 'must be a tag this service returned').optional() }),
      responses: {
        200: z.object({ serialNumbers: z.array(z.string()), lastUpdated: z.string().describe('Tag for the next call') }).meta({ id: 'UpdatedPasses' }),
        204: null,
      },
      description: 'Only serials whose card really changed after `passesUpdatedSince` (all without it); 204 when there are none.',
    },
    getWalletBranding: {
      method: 'GET',
      path: '/api/flash/wallet/branding',
      auth: ['adminSession'],
      permission: 'wallet:branding',
      summary: "The wallet cards' branding",
      responses: { 200: dataOf(brandingSchema) },
      description: 'Colours (`#rrggbb`) and logo (PNG, base64) of the cards; the defaults where nothing is set. The name on the card is the workspace name.',
    },
    putWalletBranding: {
      method: 'PUT',
      path: '/api/flash/wallet/branding',
      auth: ['adminSession'],
      permission: 'wallet:branding',
      summary: "Replace the wallet cards' branding",
      body: brandingBody,
      responses: { 200: dataOf(brandingSchema) },
      description:
        'Replaces the whole branding (a field left out or null goes back to its default). Cards show it from their next update. Audited (`wallet_branding.updated`).',
    },
    logPassDevice: {
      method: 'POST',
      path: '/api/wallet/apple/v1/log',
      auth: ['public'],
      summary: 'Devices report problems with the web service',
      body: z.object({
        logs: z.array(z.string().max(config.wallet.maxLogLineLength)).max(config.wallet.maxLogLines).describe("Log lines of the device (Apple's protocol)"),
      }),
      responses: { 200: null },
      description: 'Kept in the service logs for operators.',
    },
  },
});
