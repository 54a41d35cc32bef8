/**
 * One configuration home: `static.ts` holds the numbers (CDK, functions and local runtime read the
 * same ones), `environment.ts` what differs per deployment (parsed once), `overrides.ts` the one
 * way an environment variable may replace a static number.
 */
export { config } from './static';
export { alarmEmailOf } from './deployment';
export { reloadRuntimeConfig, REQUIRED_FUNCTION_ENV, runtimeConfig, type RuntimeConfig } from './environment';
export {
  COUPON_NUMBERS,
  couponSettings,
  type CouponSettings,
  environmentOf,
  EXPORT_NUMBERS,
  exportSettings,
  type ExportSettings,
  numbersOf,
  PASSWORD_NUMBERS,
  passwordSettings,
  RATE_GUARD_ENV,
  RATE_GUARD_NUMBERS,
  rateGuardSettings,
  WEBHOOK_ENV,
  WEBHOOK_NUMBERS,
  webhookSettings,
  WORKSPACE_RATE_LIMITS_ENV,
  WORKSPACE_RATE_NUMBERS,
  workspaceRateOverrides,
  workspaceRateSettings,
  type WorkspaceRateOverride,
  type WorkspaceRateSettings,
  type NumberGroup,
  type RateGuardSettings,
  type WebhookSettings,
} from './overrides';
