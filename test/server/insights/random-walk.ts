/**
 * A seeded random walk shaped like the official USD/CRC series: a level between ₡450 and ₡700,
 * daily moves of about 0.15 % on business days with runs of drift up, down or none, a rare jump
 * of about 1 %, Saturday to Monday repeating Friday's market as the real series does, and a
 * buy–sell spread that wanders between ₡4 and ₡10 on its own. Deterministic for a seed.
 */
import { addDays } from '../../../shared/dates';
import type { RatePoint } from '../../../server/domain/types';

/** mulberry32: a small, fast generator whose stream is fixed by its seed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

const cents = (v: number) => Math.round(v * 100) / 100;
const clamp = (v: number, low: number, high: number) => Math.min(high, Math.max(low, v));

export function randomWalk(seed: number, days: number, start = '2021-01-01'): RatePoint[] {
  const random = generator(seed);
  let level = 450 + 250 * random();
  let spread = 4 + 6 * random();
  let drift = 0;
  const points: RatePoint[] = [];
  for (let i = 0; i < days; i++) {
    const date = addDays(start, i);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    // Sunday and Monday repeat Saturday's value, which is Friday's market (0 = Sunday).
    if (i > 0 && (weekday === 0 || weekday === 1)) {
      points.push({ ...(points[i - 1] as RatePoint), date });
      continue;
    }
    // A new run of drift every few weeks: up to ±0.08 % a day, or none.
    if (random() < 1 / 25) drift = random() < 0.3 ? 0 : (random() * 2 - 1) * 0.0008;
    const jump = random() < 1 / 250 ? (random() < 0.5 ? -1 : 1) * 0.01 : 0;
    level = clamp(level * (1 + drift + 0.0015 * normal(random) + jump), 450, 700);
    spread = clamp(spread + 0.15 * normal(random), 4, 10);
    const sell = cents(level);
    points.push({ date, buy: cents(sell - spread), sell });
  }
  return points;
}
