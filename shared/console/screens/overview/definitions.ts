/** What each figure of the Overview counts, as its explanation says (the program guide's Finance section, in short). */
export const DEFINITIONS = {
  members: 'Members enrolled, erased ones included.',
  'points-issued': 'Points ever credited to balances: earned on orders, granted by campaigns, added by hand.',
  'points-redeemed': 'Points ever spent on coupons and rewards (not refunds, support deductions or expiries).',
  orders: 'Orders recorded for members.',
  'exports-running': 'Data exports waiting or running now.',
  'webhooks-delivered': 'Webhook deliveries your endpoints accepted in the last 24 hours.',
  'webhooks-failed': 'Delivery attempts that failed in the last 24 hours and are retried or failed for good.',
  'webhooks-dead': 'Deliveries given up after their last retry in the last 24 hours.',
  outstanding: 'Outstanding: points members hold at the end of the period that have neither been redeemed nor expired. The liability.',
  opening: 'Points members held before the first day of the period.',
  issued: "Points credited to balances in the period: orders' own points when they became spendable, campaign rewards, points added by hand.",
  redeemed: 'Points spent on coupons and rewards in the period, less voided redemptions.',
  reversed: 'Points taken back in the period because their order was refunded, cancelled or corrected downward.',
  expired: 'Points that reached their expiry date in the period.',
  deducted: 'Points support took off in the period (deductions and corrections): neither redeemed nor expired.',
  pending: 'Points of orders still waiting to become spendable at the end of the period: not yet a liability.',
  'redemption-rate': 'Points redeemed divided by points issued in the period.',
  'breakage-rate': 'Points expired divided by points issued in the period: the share that ended unused.',
  value: "The outstanding points valued at the program's point value in this currency.",
  active: 'Distinct members with an order, or a points change other than an expiry, in the period.',
  tiers: 'Members in each tier now.',
  'campaign-points': "Points the campaign's rewards credited in the period: its cost in points.",
  'campaign-rewards': 'Point rewards the campaign credited in the period (a member rewarded twice counts twice).',
} as const;

export type Defined = keyof typeof DEFINITIONS;
