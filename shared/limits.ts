/** Every numeric bound of the public contract (docs/api.md), in one place for server, add-on and SDK. */
export const LIMITS = {
  history: { minDays: 1, maxDays: 365, defaultDays: 30 },
  /** `to - from` may be at most this many days, so a range holds at most 367 records. */
  range: { maxSpanDays: 366 },
  analytics: { minDays: 1, maxDays: 20000, defaultDays: 30 },
  chart: { minDays: 1, maxDays: 20000, defaultDays: 30, minPoints: 2, maxPoints: 500, defaultPoints: 90 },
  convert: { maxAmount: 1e12 },
  insights: { minDays: 7, maxDays: 365, defaultDays: 30 },
  rateLimit: { perMinute: 60, windowSeconds: 60 },
  /**
   * One POST to the MCP endpoint: at most `batch` messages, at most `inFlightPerKey` POSTs of one
   * key handled at a time, so an answer weighs at most `answerMb` (a batch of the largest tool
   * answer, a year of history, about 120 KB each with its JSON text and structured copy).
   */
  mcp: { batch: 10, inFlightPerKey: 2, answerMb: 2 },
  /** Money is rounded to 2 decimals, derived statistics to 4 (half away from zero). */
  decimals: { money: 2, statistic: 4 },
} as const;

/** The time zone that decides what "today" is. Costa Rica keeps UTC-6 all year. */
export const TIME_ZONE = 'America/Costa_Rica';
