/** The plans a key can have. Custom keys take their own limits, starting from Pro's. */
export const PLANS = {
  pro: { label: 'Pro', monthlyQuota: 5000, ratePerMinute: 60, priceUsdPerMonth: 2.99 },
  custom: { label: 'Custom', monthlyQuota: 5000, ratePerMinute: 60, priceUsdPerMonth: null },
} as const;

export type PlanId = keyof typeof PLANS;
export const PLAN_IDS = Object.keys(PLANS) as PlanId[];
