/**
 * The summary of a MONEX day's readings: a holiday's four 0s are its own reading, a session's
 * reading is found by its figures, an older reading of other figures counts but does not make the
 * day as it stands first seen earlier, and a day without any reading falls back to its fetch time.
 */
import { type MonexDayFigures, type MonexObservation, readsAs, summarizeMonexObservations } from '../../../server/domain/monex-provenance';

const FALLBACK = 'BCCR SDDE indicators 3439 3436 3437 3446';
const session: MonexDayFigures = { session: true, average: 483.69, min: 482.5, max: 485, volume: 12.75, source: 'BCCR', fetchedAt: '2026-02-13T18:00:00.000Z' };
const holiday: MonexDayFigures = { session: false, average: null, min: null, max: null, volume: null, source: 'BCCR', fetchedAt: '2026-02-13T18:00:00.000Z' };
const reading = (text: string, firstSeenAt: string, lastConfirmedAt: string, count: number, upstream = 'read here'): MonexObservation => ({
  source: 'BCCR',
  upstream,
  reading: text,
  firstSeenAt,
  lastConfirmedAt,
  count,
});

describe('readsAs', () => {
  it('matches a session by its four figures and a day without a session by four 0s', () => {
    expect(readsAs('483.69/482.5/485/12.75', session)).toBe(true);
    expect(readsAs('483.7/482.5/485/12.75', session)).toBe(false);
    expect(readsAs('0/0/0/0', holiday)).toBe(true);
    expect(readsAs('0/0/0/0', session)).toBe(false);
    expect(readsAs('0/0/0', holiday)).toBe(false);
  });
});

describe('summarizeMonexObservations', () => {
  it('first seen when the current figures were first read; confirmed when last read; every reading counted', () => {
    const log = [
      reading('483.5/482.5/485/12.5', '2026-02-12T19:00:00.000Z', '2026-02-12T20:00:00.000Z', 2, 'older'),
      reading('483.69/482.5/485/12.75', '2026-02-13T18:00:00.000Z', '2026-02-14T18:00:00.000Z', 3, 'current'),
    ];
    expect(summarizeMonexObservations(session, log, FALLBACK)).toEqual({
      upstream: 'current',
      firstSeenAt: '2026-02-13T18:00:00.000Z',
      lastConfirmedAt: '2026-02-14T18:00:00.000Z',
      observations: 5,
    });
  });

  it("a holiday's 0s are its reading", () => {
    const log = [reading('0/0/0/0', '2026-02-13T18:00:00.000Z', '2026-02-13T19:00:00.000Z', 2)];
    expect(summarizeMonexObservations(holiday, log, FALLBACK)).toMatchObject({
      upstream: 'read here',
      lastConfirmedAt: '2026-02-13T19:00:00.000Z',
      observations: 2,
    });
  });

  it('without a reading: the fallback upstream and the fetch time', () => {
    expect(summarizeMonexObservations(holiday, [], FALLBACK)).toEqual({
      upstream: FALLBACK,
      firstSeenAt: holiday.fetchedAt,
      lastConfirmedAt: holiday.fetchedAt,
      observations: 0,
    });
  });
});
