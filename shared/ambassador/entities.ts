/**
 * What the ambassador program decides of a referral code given at sign-up, as the capture that
 * carried it stores it: declared here, below the captures, which import it.
 */

export const REFERRAL_OUTCOMES = ['linked', 'unknown_code', 'existing_member'] as const;
export type ReferralOutcome = (typeof REFERRAL_OUTCOMES)[number];
