import type { walletArea } from '../wallet';
import type { AreaExamples } from './types';
import * as W from './world';

export const walletExamples: AreaExamples<typeof walletArea> = {
  issueWalletPass: {
    request: {
      platform: "apple",
    },
    responses: {
      200: {
          saveUrl: "https://shop.example.com/hooks/loyalty",
        },
    },
  },
  registerPassDevice: {
    request: {
      pushToken: "TODO_pushToken",
    },
    params: { deviceId: "TODO_deviceId", passTypeId: "TODO_passTypeId", serial: "TODO_serial" },
    responses: {

    },
  },
  unregisterPassDevice: {
    params: { deviceId: "TODO_deviceId", passTypeId: "TODO_passTypeId", serial: "TODO_serial" },
    responses: {

    },
  },
  listUpdatedPasses: {
    query: { passesUpdatedSince: "TODO_passesUpdatedSince" },
    params: { deviceId: "TODO_deviceId", passTypeId: "TODO_passTypeId" },
    responses: {
      200: {
          serialNumbers: ["TODO_serialNumbers"],
          lastUpdated: "TODO_lastUpdated",
        },
    },
  },
  getLatestPass: {
    params: { passTypeId: "TODO_passTypeId", serial: "TODO_serial" },
    responses: {

    },
  },
  getWalletBranding: {
    responses: {
      200: {
        data: W.walletBranding,
      },
    },
  },
  putWalletBranding: {
    request: {
      backgroundColor: "TODO_backgroundColor",
      foregroundColor: "TODO_foregroundColor",
      labelColor: "TODO_labelColor",
      logoPng: "TODO_logoPng",
    },
    responses: {
      200: {
        data: W.walletBranding,
      },
    },
  },
  logPassDevice: {
    request: {
      logs: ["TODO_logs"],
    },
    responses: {

    },
  },
};
