import { perSecond } from '../../../server/domain/per-second';

describe('perSecond', () => {
  it('derives once per second of the clock, and again when the second changes', () => {
    let now = new Date('2025-01-15T05:59:59.100Z');
    const derive = jest.fn((d: Date) => d.toISOString().slice(0, 19));
    const value = perSecond(() => now, derive);
    expect(value()).toBe('2025-01-15T05:59:59');
    now = new Date('2025-01-15T05:59:59.900Z');
    expect(value()).toBe('2025-01-15T05:59:59');
    expect(derive).toHaveBeenCalledTimes(1);
    now = new Date('2025-01-15T06:00:00.000Z');
    expect(value()).toBe('2025-01-15T06:00:00');
    // A clock set back (tests pin it) is followed too.
    now = new Date('2024-12-31T23:00:00.000Z');
    expect(value()).toBe('2024-12-31T23:00:00');
    expect(derive).toHaveBeenCalledTimes(3);
  });
});
