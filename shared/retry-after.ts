/**
 * `Retry-After` as whole seconds to wait, for every client of the API (SDK and Sheets add-on).
 * The API itself sends delta-seconds; a proxy or CDN in front of it may send an HTTP date instead,
 * which HTTP allows just as well, so both are read. Free of dependencies: client bundles inline it.
 */

/** Seconds to wait before asking again, or null when the header is absent or unreadable. */
export function retryAfterSeconds(value: string | null | undefined, now: number = Date.now()): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text);
  // An HTTP date spells out its weekday and month; without letters ("-5", "1.5") it is neither form,
  // and Date.parse would read some of those as a year.
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
