import { hash } from 'node:crypto';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { createRateLimiter } from '../server/access/rate-limit';
import pino from 'pino';
async function time(label: string, n: number, fn: () => unknown) {
  for (let i = 0; i < 2000; i++) await fn();
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await fn();
  console.log(label, (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(2), 'µs');
}
(async () => {
  await time('sha256', 50000, () => hash('sha256', 'crc_live_0wysWqKMk4NRbc1sCaXYO5KLp0vlYJX2cq2Z1pGSjzQ', 'base64url'));
  const mem = new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: 60 });
  await time('rlf memory consume', 50000, () => mem.consume('key:1'));
  const lim = createRateLimiter({ redis: null, logger: pino({ level: 'silent' }), windowSeconds: 60, namespace: 'x' });
  await time('our take', 50000, () => lim.take('key:1', 1e9));
  await time('toISOString', 50000, () => new Date().toISOString());
  await time('empty await', 50000, async () => undefined);
})();
