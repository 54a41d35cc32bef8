import type { walletArea, walletPassesArea } from '../../wallet';
import type { AreaExamples } from './types';
import { walletBranding } from './world';

const registration = { deviceId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', passTypeId: 'pass.com.example.loyalty', serial: 'loy-7k3q9v2m4x8c' };

export const walletPassesExamples: AreaExamples<typeof walletPassesArea> = {
  issueWalletPass: {
    summary: 'A Google Wallet card: a link to save it (Apple answers the .pkpass file itself)',
    request: { platform: 'google' },
    responses: {
      200: { saveUrl: 'https://pay.google.com/gp/v/save/eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJ3YWxsZXRAZXhhbXBsZS5jb20ifQ.c2lnbmF0dXJl' },
    },
  },
  getLatestPass: { params: { passTypeId: registration.passTypeId, serial: registration.serial }, responses: {} },
};

export const walletExamples: AreaExamples<typeof walletArea> = {
  registerPassDevice: {
    params: registration,
    request: { pushToken: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' },
    responses: {},
  },
  unregisterPassDevice: { params: registration, responses: {} },
  listUpdatedPasses: {
    params: { deviceId: registration.deviceId, passTypeId: registration.passTypeId },
    query: { passesUpdatedSince: '1773480600000' },
    responses: { 200: { serialNumbers: [registration.serial], lastUpdated: '1773997200000' } },
  },
  getWalletBranding: { responses: { 200: { data: walletBranding } } },
  putWalletBranding: {
    summary: 'Brand colours, no logo',
    request: { backgroundColor: walletBranding.backgroundColor, foregroundColor: walletBranding.foregroundColor, labelColor: walletBranding.labelColor },
    responses: { 200: { data: walletBranding } },
  },
  logPassDevice: {
    request: {
      logs: [
        '[2026-03-20 10:00:00 +0100] Get pass task (pass type pass.com.example.loyalty, serial loy-7k3q9v2m4x8c) encountered error: Server response was malformed',
      ],
    },
    responses: {},
  },
};
