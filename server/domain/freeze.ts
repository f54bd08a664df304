/**
 * Records kept in memory and handed out to every request are frozen, deeply: nothing can change one
 * by mistake, and a frozen record's JSON text may be written once and kept (http/answer-json.ts).
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
