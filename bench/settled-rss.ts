/**
 * RSS as a floor or a server's start reads it: the lowest, collected (the runner starts its
 * processes with --expose-gc), over a few seconds. PGlite holds some 300 MB of external buffers for
 * a second or two after it opens and then lets go of them; a reading taken at once counts them,
 * and a server that collects again while it serves no longer has them.
 */
import { setTimeout as sleep } from 'node:timers/promises';

const SETTLE_MS = 5000;
const EVERY_MS = 250;

export async function settledRssMb(): Promise<number> {
  let lowest = Number.POSITIVE_INFINITY;
  for (const started = performance.now(); performance.now() - started < SETTLE_MS; await sleep(EVERY_MS)) {
    globalThis.gc?.();
    lowest = Math.min(lowest, process.memoryUsage().rss);
  }
  return Math.round(lowest / 2 ** 20);
}
