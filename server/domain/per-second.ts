/**
 * A value derived from the clock, worked out at most once per second of that clock. The calendar
 * day and the quota month are asked for on every request; formatting a date in a time zone costs
 * more than everything else the request does with it.
 */
export function perSecond<T>(clock: () => Date, derive: (now: Date) => T): () => T {
  let second = Number.NaN;
  let value: T;
  return () => {
    const now = clock();
    const current = Math.floor(now.getTime() / 1000);
    if (current !== second) {
      value = derive(now);
      second = current;
    }
    return value;
  };
}
