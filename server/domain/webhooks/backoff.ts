/**
 * When a failed delivery is tried again: about 1 min, 5 min, 30 min, 2 h, 8 h and 24 h after the
 * attempts that failed, then never (the delivery is failed). Each wait is moved by up to ±10 % at
 * random, so that the deliveries a receiver's outage held back do not all come back at once.
 */
const MINUTE = 60_000;
export const RETRY_DELAYS_MS: readonly number[] = [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE, 480 * MINUTE, 1440 * MINUTE];
/** The first attempt and one per delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** Failed deliveries in a row after which a subscription is disabled. */
export const FAILURES_TO_DISABLE = 5;
const JITTER = 0.1;

/** The time of the next attempt after `attempts` failed ones, or null when none is left. */
export function nextAttemptAt(attempts: number, now: Date, random: () => number = Math.random): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  if (delay === undefined) return null;
  return new Date(now.getTime() + Math.round(delay * (1 + JITTER * (2 * random() - 1))));
}
