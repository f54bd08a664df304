/**
 * An answer's JSON is JSON.stringify's byte for byte, whether its list is short, long, of frozen
 * records (whose texts are kept) or of anything else; and the records of a series in memory are
 * frozen, deeply, so no request can change what the next one is answered.
 */
import { answerJson, BLOCK_ELEMENTS } from '../../../server/http/answer-json';
import { deepFreeze } from '../../../server/domain/freeze';
import { frozenSlice, sliceOrigin } from '../../../server/domain/slices';
import { loadedSeries } from '../../../server/store/series-reader';
import type { ExchangeRate } from '../../../shared/types';

const record = (i: number) => ({
  date: `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
  buy: 500 + i / 7,
  sell: -0,
  source: i % 3 ? 'BCCR' : 'Hacienda "quoted" \\ \u2028 é',
  big: 1e21 + i,
  small: 1e-7 * i,
  missing: undefined,
  nested: { derived: [i, null, 'x'], when: new Date(Date.UTC(2024, 0, 1 + i)) },
});

const same = (data: unknown) => expect(answerJson(data)).toBe(JSON.stringify({ success: true, data }));

it('writes what JSON.stringify writes, for every kind of data', () => {
  same(null);
  same({ date: '2025-01-15', buy: 506.47 });
  same([]);
  same(Array.from({ length: 5 }, (_, i) => record(i)));
  same(Array.from({ length: 100 }, (_, i) => record(i)));
  same(Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? undefined : i % 10 === 1 ? null : i % 10 === 2 ? 'text' : i % 10 === 3 ? () => i : record(i))));
});

it("keeps a frozen record's text, and writes the same answer again and in any list", () => {
  const records = Array.from({ length: 400 }, (_, i) => deepFreeze(record(i)));
  same(records);
  same(records);
  same(records.slice(100, 366));
  same([...records.slice(0, 50), record(1), ...records.slice(50, 100)]);
});

it("writes a window of a series from the series' kept texts, as JSON.stringify does, wherever it is cut", () => {
  const source = Object.freeze(Array.from({ length: 3 * BLOCK_ELEMENTS + 40 }, (_, i) => deepFreeze(record(i))));
  const cuts: Array<[number, number]> = [
    [0, 0],
    [0, 1],
    [0, 40],
    [BLOCK_ELEMENTS - 1, BLOCK_ELEMENTS + 1],
    [0, BLOCK_ELEMENTS],
    [BLOCK_ELEMENTS, 2 * BLOCK_ELEMENTS],
    [BLOCK_ELEMENTS + 1, 2 * BLOCK_ELEMENTS - 1],
    [100, 466],
    [10, 3 * BLOCK_ELEMENTS + 5],
    [0, source.length],
    [source.length - 33, source.length],
    [source.length - 5, source.length + 100],
    [500, 400],
  ];
  for (const [start, end] of cuts) {
    const window = frozenSlice(source, start, end);
    same(window);
    same(window);
    same({ from: 'a', series: window });
  }
});

it('writes a window cut from a list that may change, or that holds what may change, element by element', () => {
  const changing = Array.from({ length: 600 }, (_, i) => deepFreeze(record(i)));
  const window = frozenSlice(changing, 10, 400);
  // Changed after the window was cut: the window still holds what it was cut with.
  changing[20] = deepFreeze(record(9_999));
  same(window);
  const loose = record(300);
  const mixed = Object.freeze(Array.from({ length: 600 }, (_, i) => (i === 300 ? loose : deepFreeze(record(i)))));
  same(frozenSlice(mixed, 250, 350));
  loose.buy = 1;
  same(frozenSlice(mixed, 250, 350));
  same(frozenSlice(mixed, 0, 200));
});

it('hands out a window that cannot be changed, and knows where it was cut from', () => {
  const source = Object.freeze(Array.from({ length: 100 }, (_, i) => deepFreeze(record(i))));
  const window = frozenSlice(source, 10, 60);
  expect(sliceOrigin(window)).toEqual({ source, start: 10, end: 60 });
  expect(sliceOrigin(source.slice(10, 60))).toBeUndefined();
  expect(() => (window as unknown[]).push(record(1))).toThrow(TypeError);
  expect(() => (window as unknown[]).reverse()).toThrow(TypeError);
});

it('writes an object holding a long list (a chart and its series) as JSON.stringify does', () => {
  const points = Array.from({ length: 500 }, (_, i) =>
    deepFreeze({ date: `2024-01-${String((i % 28) + 1).padStart(2, '0')}`, buy: 500 + i / 3, sell: 1e21 + i }),
  );
  const chart = { from: '2024-01-01', to: '2024-12-31', points: 500, series: points, trend: { buy: { slopePerDay: -0, start: 1e-7 } } };
  same(chart);
  same({ ...chart, series: points.slice(20, 120), note: undefined, draw: () => 1, [Symbol('hidden')]: 1, 'quoted "name"': [record(1)] });
  same({ series: points, other: Array.from({ length: 40 }, (_, i) => (i % 2 ? record(i) : undefined)), nested: { series: points } });
  // An object of its own kind, or one that writes itself, is left to JSON.stringify.
  same({ series: points, toJSON: () => ({ replaced: true }) });
  same(Object.assign(Object.create({ inherited: 1 }) as object, { series: points }));
});

it('freezes the records of a series in memory, and what they hold', () => {
  const rates: ExchangeRate[] = Array.from({ length: 3 }, (_, i) => ({
    date: `2025-01-1${i}`,
    currencyFrom: 'USD',
    currencyTo: 'CRC',
    buy: 500 + i,
    sell: 510 + i,
    source: 'BCCR',
    fetchedAt: '2025-01-14T18:05:12.000Z',
  }));
  const series = loadedSeries(rates, 0);
  for (const kept of series.records) expect(Object.isFrozen(kept)).toBe(true);
  const nested = deepFreeze({ derived: { quote: { value: 1 } } });
  expect(Object.isFrozen(nested.derived.quote)).toBe(true);
  expect(() => {
    (series.records[0] as { buy: number }).buy = 1;
  }).toThrow(TypeError);
});
