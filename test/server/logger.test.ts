import fc from 'fast-check';
import pino from 'pino';
import { isoTimeField } from '../../server/logger';

/** What pino's own isoTime writes at `ms`. */
function pinosField(ms: number): string {
  const realNow = Date.now;
  Date.now = () => ms;
  try {
    return pino.stdTimeFunctions.isoTime();
  } finally {
    Date.now = realNow;
  }
}

describe('isoTimeField', () => {
  it('writes what pino.stdTimeFunctions.isoTime writes, at any instant (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }), (ms) => {
        expect(isoTimeField(() => ms)()).toBe(pinosField(ms));
      }),
    );
  });

  it('stays right over a sequence of instants: within a second, across seconds, and back in time', () => {
    const instants = [
      Date.UTC(2026, 0, 15, 18, 5, 12, 0),
      Date.UTC(2026, 0, 15, 18, 5, 12, 7),
      Date.UTC(2026, 0, 15, 18, 5, 12, 999),
      Date.UTC(2026, 0, 15, 18, 5, 13, 0),
      Date.UTC(2026, 0, 15, 18, 5, 12, 500),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 1),
    ];
    let i = 0;
    const field = isoTimeField(() => instants[i] as number);
    for (i = 0; i < instants.length; i++) expect(field()).toBe(pinosField(instants[i] as number));
  });
});
