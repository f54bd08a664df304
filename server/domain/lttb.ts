/**
 * Largest-Triangle-Three-Buckets downsampling (Steinarsson, "Downsampling Time Series for
 * Visual Representation", 2013): keeps the points that shape the line the eye sees.
 *
 * Returns at most `threshold` elements of `data`, the same objects, in their original order:
 * - `data.length <= threshold`: a copy of `data`, nothing to drop.
 * - `threshold <= 2`: `[first, last]` (or a copy when `data` has at most 2 elements). The first
 *   and last points are always kept, so fewer than 2 cannot be honoured; a threshold below 2 is
 *   treated as 2 rather than dropping an end of the series.
 * - otherwise exactly `threshold` elements: the first, one per bucket of the points between,
 *   and the last. In each bucket the kept point forms the largest triangle with the point kept
 *   in the previous bucket and the average of the next bucket.
 *
 * `threshold` must be an integer. `x` should be increasing along `data` (time).
 */
export function lttb<T>(data: readonly T[], threshold: number, x: (p: T) => number, y: (p: T) => number): T[] {
  return lttbIndexes(data.map(x), data.map(y), threshold).map((i) => data[i] as T);
}

/**
 * The same downsampling over two arrays of coordinates, answering the indexes kept. Callers
 * with the coordinates at hand (the chart) skip an accessor call per point and per pass, which
 * is most of the work while the code is not optimised yet, on a server's first charts. Each x is
 * `xs[i] - origin`: the chart hands over day numbers and its first day rather than an array of
 * offsets made for the purpose.
 */
export function lttbIndexes(xs: ArrayLike<number>, ys: ArrayLike<number>, threshold: number, origin = 0): number[] {
  if (!Number.isInteger(threshold)) throw new RangeError(`threshold must be an integer, got ${threshold}`);
  const n = xs.length;
  if (n <= threshold || n <= 2) return Array.from({ length: n }, (_, i) => i);
  if (threshold <= 2) return [0, n - 1];

  const buckets = threshold - 2;
  // Start of bucket k over the inner points 1..n−2. Integer product first, then one division:
  // the floor is exact, so the buckets tile the inner points with no gap or overlap.
  const bucketStart = (k: number): number => Math.floor((k * (n - 2)) / buckets) + 1;

  const sampled: number[] = [0];
  let a = 0;
  for (let b = 0; b < buckets; b++) {
    const from = bucketStart(b);
    const to = bucketStart(b + 1);

    // The average of the next bucket; for the last bucket that is the last point alone.
    const nextFrom = to;
    const nextTo = Math.min(bucketStart(b + 2), n);
    let avgX = 0;
    let avgY = 0;
    for (let j = nextFrom; j < nextTo; j++) {
      avgX += (xs[j] as number) - origin;
      avgY += ys[j] as number;
    }
    avgX /= nextTo - nextFrom;
    avgY /= nextTo - nextFrom;

    const ax = (xs[a] as number) - origin;
    const ay = ys[a] as number;
    // Default to the bucket's first point so a NaN area can never leave the bucket unpicked.
    let chosen = from;
    let maxArea = -1;
    for (let j = from; j < to; j++) {
      // Twice the triangle's area; the factor ½ does not change which one is largest.
      const area = Math.abs((ax - avgX) * ((ys[j] as number) - ay) - (ax - ((xs[j] as number) - origin)) * (avgY - ay));
      if (area > maxArea) {
        maxArea = area;
        chosen = j;
      }
    }
    sampled.push(chosen);
    a = chosen;
  }
  sampled.push(n - 1);
  return sampled;
}
