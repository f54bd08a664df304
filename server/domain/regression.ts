export interface Line {
  slope: number;
  intercept: number;
}

/**
 * Ordinary least squares fit of `ys` against `xs`.
 *
 * Both axes are centred on their means before the sums of products are taken: with x in days
 * and y around 500 CRC, the textbook form n·Σxy − Σx·Σy subtracts two huge, nearly equal numbers
 * and loses the digits the slope lives in; the centred form never builds those numbers.
 *
 * With a single point, or when every x is the same, there is no slope to speak of: the line is
 * flat (slope 0) at the mean of the ys (the single y when there is one point), which is also
 * the value minimising the squared error.
 */
export function leastSquares(xs: ArrayLike<number>, ys: ArrayLike<number>): Line {
  const n = xs.length;
  if (n === 0) throw new RangeError('leastSquares needs at least one point');
  if (ys.length !== n) throw new RangeError(`leastSquares got ${n} xs but ${ys.length} ys`);

  let sumX = 0;
  let sumY = 0;
  for (let i = 0; i < n; i++) {
    sumX += xs[i] as number;
    sumY += ys[i] as number;
  }
  const meanX = sumX / n;
  const meanY = sumY / n;

  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - meanX;
    sxx += dx * dx;
    sxy += dx * ((ys[i] as number) - meanY);
  }
  if (sxx === 0) return { slope: 0, intercept: meanY };
  const slope = sxy / sxx;
  return { slope, intercept: meanY - slope * meanX };
}
