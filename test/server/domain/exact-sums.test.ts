import { averageOf, changeBetween, exactSum } from '../../../server/domain/exact-sums';
import { Dec } from '../../../server/domain/decimal';
import { statistic } from '../../../server/domain/rounding';

// The references: every value read by its shortest representation, in Decimal arithmetic.
const referenceSum = (values: number[]) => values.reduce((total, v) => total.plus(v), new Dec(0));
const referenceAverage = (values: number[]) => statistic(referenceSum(values).div(values.length));
const referenceChange = (from: number, to: number) => statistic(new Dec(to).minus(from));

// A fixed generator: the same values on every run.
let seed = 7;
const random = () => {
  seed = (seed * 16_807) % 2_147_483_647;
  return seed / 2_147_483_647;
};
const valuesWith = (decimals: number, count: number, from = 400, span = 700) =>
  Array.from({ length: count }, () => Math.round((from + random() * span) * 10 ** decimals) / 10 ** decimals);

// Values whose float products miss the integer (1.005 * 100 is 100.49999…), and doubles that do not scale.
const AWKWARD = [1.005, 2.675, 506.47];
const IRREGULAR = [0.1, 0.2, 1 / 3, 506.47, Math.PI, 1e-9, 2 ** 60, -17.25];

describe('exactSum', () => {
  it('is the Decimal sum for rates of 0 to 6 decimals, and for any other doubles', () => {
    for (let decimals = 0; decimals <= 6; decimals++) {
      for (let round = 0; round < 50; round++) {
        const values = valuesWith(decimals, 1 + Math.floor(random() * 400));
        expect([decimals, exactSum(values).toString()]).toEqual([decimals, referenceSum(values).toString()]);
      }
    }
    expect(exactSum(IRREGULAR).toString()).toBe(referenceSum(IRREGULAR).toString());
    expect(exactSum(AWKWARD).toString()).toBe(referenceSum(AWKWARD).toString());
  });
});

describe('averageOf', () => {
  it('is the Decimal average rounded half away from zero to 4 decimals, for months and years of rates of 0 to 6 decimals', () => {
    for (let decimals = 0; decimals <= 6; decimals++) {
      for (let round = 0; round < 200; round++) {
        const values = valuesWith(decimals, 1 + Math.floor(random() * 300));
        expect([decimals, values.length, averageOf(values)]).toEqual([decimals, values.length, referenceAverage(values)]);
      }
    }
  });

  it('rounds a tie away from zero, as SQL round(numeric, 4) does', () => {
    // 0.00005 exactly: the tie, and its mirror below zero.
    expect(averageOf([0.0001, 0])).toBe(0.0001);
    expect(averageOf([-0.0001, 0])).toBe(-0.0001);
    expect(averageOf([506.47, 506.48])).toBe(506.475);
    // 1.23455 is a tie at 5 decimals (six-decimal inputs: the division is by a power of ten too).
    expect(averageOf([1.2345, 1.2346])).toBe(1.2346);
    expect(averageOf([-1.2345, -1.2346])).toBe(-1.2346);
    // Thirds round to the nearest, whatever the side.
    expect(averageOf([1, 1, 2])).toBe(1.3333);
    expect(averageOf([1, 2, 2])).toBe(1.6667);
  });

  it('never gives −0, and agrees with Decimal where the values do not scale', () => {
    expect(Object.is(averageOf([-0.00001, 0]), 0)).toBe(true);
    for (const values of [IRREGULAR, AWKWARD, [1e17, 3e17], valuesWith(9, 30), valuesWith(2, 50, -300, 600)]) {
      expect(averageOf(values)).toBe(referenceAverage(values));
    }
  });
});

describe('changeBetween', () => {
  it('is the Decimal difference rounded to 4 decimals, in both directions', () => {
    for (let decimals = 0; decimals <= 9; decimals++) {
      for (let round = 0; round < 200; round++) {
        const [from, to] = valuesWith(decimals, 2) as [number, number];
        expect([from, to, changeBetween(from, to)]).toEqual([from, to, referenceChange(from, to)]);
      }
    }
    expect(changeBetween(1.00005, 1)).toBe(-0.0001);
    expect(Object.is(changeBetween(506.47, 506.47), 0)).toBe(true);
    expect(Object.is(changeBetween(1.000001, 1), 0)).toBe(true);
    expect(changeBetween(2.675, 1.005)).toBe(referenceChange(2.675, 1.005));
  });
});
