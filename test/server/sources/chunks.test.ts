import { assertRange, chunkRange } from '../../../server/sources/chunks';

describe('chunkRange', () => {
  it('returns one chunk for a single day', () => {
    expect(chunkRange('2025-01-15', '2025-01-15', 90)).toEqual([['2025-01-15', '2025-01-15']]);
  });

  it('returns nothing when from is after to', () => {
    expect(chunkRange('2025-01-16', '2025-01-15', 90)).toEqual([]);
  });

  it('splits an exact multiple into full chunks', () => {
    expect(chunkRange('2024-01-01', '2024-01-10', 5)).toEqual([
      ['2024-01-01', '2024-01-05'],
      ['2024-01-06', '2024-01-10'],
    ]);
  });

  it('leaves a short last chunk', () => {
    expect(chunkRange('2024-01-01', '2024-01-11', 5).at(-1)).toEqual(['2024-01-11', '2024-01-11']);
  });

  it('counts a leap day and crosses year ends', () => {
    expect(chunkRange('2024-02-28', '2024-03-02', 2)).toEqual([
      ['2024-02-28', '2024-02-29'],
      ['2024-03-01', '2024-03-02'],
    ]);
    expect(chunkRange('2023-12-31', '2024-01-01', 1)).toEqual([
      ['2023-12-31', '2023-12-31'],
      ['2024-01-01', '2024-01-01'],
    ]);
  });

  it('covers a whole leap year in one 366-day chunk', () => {
    expect(chunkRange('2024-01-01', '2024-12-31', 366)).toEqual([['2024-01-01', '2024-12-31']]);
  });

  it('covers 1983 to 2026 with contiguous, non-overlapping chunks', () => {
    const chunks = chunkRange('1983-01-01', '2026-11-21', 366);
    expect(chunks[0]![0]).toBe('1983-01-01');
    expect(chunks.at(-1)![1]).toBe('2026-11-21');
    for (let i = 1; i < chunks.length; i++) {
      const prevEnd = new Date(`${chunks[i - 1]![1]}T00:00:00Z`).getTime();
      expect(new Date(`${chunks[i]![0]}T00:00:00Z`).getTime() - prevEnd).toBe(86_400_000);
    }
  });

  it('accepts a huge maxDays without stepping off the calendar', () => {
    expect(chunkRange('1983-01-01', '2026-01-01', Number.MAX_SAFE_INTEGER)).toEqual([['1983-01-01', '2026-01-01']]);
  });

  it('rejects bad dates and sizes', () => {
    expect(() => chunkRange('2024-02-30', '2024-03-01', 5)).toThrow(RangeError);
    expect(() => chunkRange('2024/01/01', '2024-03-01', 5)).toThrow(RangeError);
    expect(() => chunkRange('2024-01-01', '2024-03-01', 0)).toThrow(RangeError);
    expect(() => chunkRange('2024-01-01', '2024-03-01', 1.5)).toThrow(RangeError);
  });
});

describe('assertRange', () => {
  it('accepts a span of exactly maxDays and refuses one more', () => {
    expect(() => assertRange('2025-01-01', '2025-03-31', 90)).not.toThrow();
    expect(() => assertRange('2025-01-01', '2025-04-01', 90)).toThrow(/91 days/);
  });

  it('refuses a reversed span', () => {
    expect(() => assertRange('2025-01-02', '2025-01-01', 90)).toThrow(RangeError);
  });
});
