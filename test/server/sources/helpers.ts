/** Small helpers shared by the adapter tests: fast policies and a sleep that only records. */
import type { Sleep } from '../../../server/sources/http';
import { UpstreamError } from '../../../server/sources/types';

export function recordingSleep(): { sleep: Sleep; delays: number[] } {
  const delays: number[] = [];
  return { delays, sleep: async (ms) => void delays.push(ms) };
}

/** Short timeouts and no real waiting, so the whole suite stays well under 15 s. */
export function fastPolicy(extra: { retries?: number; timeoutMs?: number } = {}) {
  const { sleep, delays } = recordingSleep();
  return { policy: { timeoutMs: extra.timeoutMs ?? 1000, retries: extra.retries ?? 2, baseDelayMs: 10, maxDelayMs: 1500, sleep, random: () => 0.5 }, delays };
}

/** Awaits a promise that must reject with an UpstreamError and returns it. */
export async function upstreamError(promise: Promise<unknown>): Promise<UpstreamError> {
  const err: unknown = await promise.then(
    () => new Error('expected an UpstreamError, but the call succeeded'),
    (e: unknown) => e,
  );
  if (!(err instanceof UpstreamError)) throw err;
  return err;
}
