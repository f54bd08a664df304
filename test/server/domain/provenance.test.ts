/**
 * The pure side of provenance: the digest text (plain decimals, at least two), the digest itself
 * against node:crypto, and what a day's observations say about its record.
 */
import { createHash } from 'node:crypto';
import { digestText, type Observation, plainDecimal, recordDigest, summarizeObservations, UPSTREAM_BY_SOURCE } from '../../../server/domain/provenance';

const sha256 = (text: string) => `sha256:${createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex')}`;

describe('plainDecimal', () => {
  it.each([
    [468.2, '468.20'],
    [468.29, '468.29'],
    [40.1234, '40.1234'],
    [500, '500.00'],
    [0, '0.00'],
    [-0, '0.00'],
    [0.5, '0.50'],
    [-12.3, '-12.30'],
    [1e21, '1000000000000000000000.00'],
    [1.5e-7, '0.00000015'],
    [123456789.123, '123456789.123'],
  ])('%p → %s', (value, text) => {
    expect(plainDecimal(value)).toBe(text);
  });

  it('writes the number exactly: the text reads back as the same number', () => {
    for (const value of [462.69, 0.1 + 0.2, 1 / 3, 2 ** 53, 5e-324, 1.7976931348623157e308]) {
      const text = plainDecimal(value);
      expect([value, /e/i.test(text), Number(text)]).toEqual([value, false, value]);
    }
  });

  it('refuses what is not a finite number', () => {
    expect(() => plainDecimal(Number.NaN)).toThrow(RangeError);
    expect(() => plainDecimal(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('the digest', () => {
  const record = { date: '2026-03-24', currencyFrom: 'USD', currencyTo: 'CRC', buy: 462.69, sell: 468.29, source: 'BCCR' };

  it('is the SHA-256 of date|currencyFrom|currencyTo|buy|sell|source', () => {
    expect(digestText(record)).toBe('2026-03-24|USD|CRC|462.69|468.29|BCCR');
    expect(recordDigest(record)).toBe(sha256('2026-03-24|USD|CRC|462.69|468.29|BCCR'));
    expect(recordDigest(record)).toBe('sha256:2e42939890286c0b83764265b5389ee7dd6c5248abef84d43174375ca6797d3d');
  });

  it('writes at least two decimals, and every decimal the value has', () => {
    expect(digestText({ ...record, buy: 468.2, sell: 470, source: 'Hacienda' })).toBe('2026-03-24|USD|CRC|468.20|470.00|Hacienda');
    expect(digestText({ ...record, date: '1983-01-01', buy: 40.1234, sell: 40.5 })).toBe('1983-01-01|USD|CRC|40.1234|40.50|BCCR');
  });

  it('changes with any field', () => {
    const digests = [record, { ...record, sell: 468.3 }, { ...record, source: 'Hacienda' }, { ...record, date: '2026-03-25' }].map(recordDigest);
    expect(new Set(digests).size).toBe(4);
    for (const digest of digests) expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('summarizeObservations', () => {
  const sdde = { buy: 'BCCR SDDE indicator 317', sell: 'BCCR SDDE indicator 318' };
  const site = { buy: 'BCCR public site (SDDE group 1), indicator 317', sell: 'BCCR public site (SDDE group 1), indicator 318' };
  const record = { buy: 500, sell: 506.5, source: 'BCCR' as const, fetchedAt: '2026-03-24T20:00:00.000Z' };
  const observation = (o: Partial<Observation>): Observation => ({
    source: 'BCCR',
    upstream: sdde,
    buy: 500,
    sell: 506.5,
    firstSeenAt: '2026-03-24T20:00:00.000Z',
    lastConfirmedAt: '2026-03-24T20:00:00.000Z',
    count: 1,
    ...o,
  });

  it('takes the first sighting of the record from its source, and the last confirmation from any source', () => {
    const summary = summarizeObservations(record, [
      observation({ upstream: site, firstSeenAt: '2026-03-24T20:00:00.000Z', lastConfirmedAt: '2026-03-25T20:00:00.000Z', count: 2 }),
      observation({ firstSeenAt: '2026-03-26T20:00:00.000Z', lastConfirmedAt: '2026-03-27T20:00:00.000Z', count: 2 }),
      // The fallback gave the same values later: a confirmation, not the record's own source.
      observation({
        source: 'Hacienda',
        upstream: UPSTREAM_BY_SOURCE.Hacienda,
        firstSeenAt: '2026-03-28T15:00:00.000Z',
        lastConfirmedAt: '2026-03-28T15:00:00.000Z',
      }),
      // Values the day had before a correction.
      observation({ buy: 499, firstSeenAt: '2026-03-23T20:00:00.000Z', lastConfirmedAt: '2026-03-23T20:00:00.000Z' }),
    ]);
    expect(summary).toEqual({
      upstream: sdde,
      firstSeenAt: '2026-03-24T20:00:00.000Z',
      lastConfirmedAt: '2026-03-28T15:00:00.000Z',
      observations: 6,
    });
  });

  it('names the upstream that read the record last', () => {
    const summary = summarizeObservations(record, [
      observation({ upstream: site, lastConfirmedAt: '2026-03-30T20:00:00.000Z' }),
      observation({ upstream: sdde, lastConfirmedAt: '2026-03-29T20:00:00.000Z' }),
    ]);
    expect(summary.upstream).toEqual(site);
  });

  it('falls back on the row itself when no observation of it was logged (a row written outside a sync)', () => {
    expect(summarizeObservations(record, [])).toEqual({
      upstream: UPSTREAM_BY_SOURCE.BCCR,
      firstSeenAt: record.fetchedAt,
      lastConfirmedAt: record.fetchedAt,
      observations: 0,
    });
    const hacienda = summarizeObservations({ ...record, source: 'Hacienda' }, [observation({ lastConfirmedAt: '2026-03-20T00:00:00.000Z' })]);
    // Never confirmed before it was first seen.
    expect(hacienda).toEqual({ upstream: UPSTREAM_BY_SOURCE.Hacienda, firstSeenAt: record.fetchedAt, lastConfirmedAt: record.fetchedAt, observations: 1 });
  });
});
