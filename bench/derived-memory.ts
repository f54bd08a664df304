/**
 * `npm run bench:memory`: the memory the derived series hold. The app keeps at most
 * MAX_DERIVED_LOADED of them (server/store/currency-series.ts); this loads that many currencies of
 * some 7,000 business days each (since 2000, as the central bank's), then twice as many, and says
 * what the V8 heap and the typed arrays grew by, garbage collected before each reading. Runs on a
 * private PostgreSQL database (as `npm run bench`: beside the one DATABASE_URL names, dropped at
 * the end), so no embedded database's own memory is counted.
 *
 *   node --expose-gc --import tsx bench/derived-memory.ts
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DERIVED_CURRENCIES } from '../shared/currency-catalog';
import { calendarDay } from '../shared/dates';
import { createCrossRatesStore } from '../server/store/cross-rates';
import { createCurrencySeries, MAX_DERIVED_LOADED } from '../server/store/currency-series';
import { createRatesStore } from '../server/store/rates';
import { createRatesInMemory } from '../server/store/rates-in-memory';
import { BENCH_CURRENCIES, seedCrossRates, seedFullHistory } from './seed';
import { createPrivateDatabase } from './setups';

interface Reading {
  heapUsed: number;
  arrayBuffers: number;
}

const gc = globalThis.gc;

/** The heap and the typed arrays' buffers once every unreachable object is collected. */
async function settled(): Promise<Reading> {
  if (!gc) throw new Error('run with node --expose-gc: without it the readings would count garbage');
  for (let i = 0; i < 4; i++) {
    gc();
    await nextTurn();
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heapUsed, arrayBuffers };
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const grew = (from: Reading, to: Reading) => ({ heap: to.heapUsed - from.heapUsed, buffers: to.arrayBuffers - from.arrayBuffers });

async function main(): Promise<void> {
  const today = calendarDay(new Date());
  // Twice the bound: loading them all shows the least recently read ones let go.
  const codes = DERIVED_CURRENCIES.slice(0, MAX_DERIVED_LOADED * 2).map((c) => c.code);
  const database = await createPrivateDatabase();
  try {
    const days = await seedFullHistory(database.db, today);
    // The bench's own currencies are seeded with the history already.
    const others = codes.filter((code) => !(BENCH_CURRENCIES as readonly string[]).includes(code));
    const crossRows = await seedCrossRates(database.db, others, today);
    const listeners: Array<() => void> = [];
    const onRatesChanged = (listener: () => void) => listeners.push(listener);
    const dollar = createRatesInMemory(createRatesStore(database.db), onRatesChanged);
    const currencies = createCurrencySeries({ dollar, cross: createCrossRatesStore(database.db), onRatesChanged });
    const dropAll = () => {
      for (const listener of listeners) listener();
    };
    const changed = async () => {
      dropAll();
      // The dollar's series is held by the app whatever else it serves: loaded again before each reading.
      await dollar.latest(today);
    };
    // One series loaded and dropped first, so that what loading compiles and caches once (code,
    // the database client's) is in every reading, and the readings differ by the series alone.
    await currencies.of(codes.at(-1) as string).latest(today);
    dropAll();
    // For comparison, the dollar's own series (records without `derived`, their fetch times shared).
    const empty = await settled();
    await dollar.latest(today);
    const before = await settled();

    const loadMs: number[] = [];
    let records = 0;
    for (const code of codes.slice(0, MAX_DERIVED_LOADED)) {
      const started = performance.now();
      records += (await currencies.of(code).range('0001-01-01', '9999-12-31')).length;
      loadMs.push(performance.now() - started);
    }
    const full = await settled();
    for (const code of codes.slice(MAX_DERIVED_LOADED)) await currencies.of(code).latest(today);
    const overFull = await settled();
    await changed();
    const dropped = await settled();

    const held = grew(before, full);
    const total = held.heap + held.buffers;
    const perRecord = total / records;
    const sortedMs = [...loadMs].sort((a, b) => a - b);
    const lines = [
      `${days.toLocaleString('en-US')} days of the dollar, ${(crossRows / others.length).toFixed(0)} business days of cross rates per currency (${codes.length} currencies)`,
      `${MAX_DERIVED_LOADED} derived series loaded (${codes.slice(0, MAX_DERIVED_LOADED).join(', ')}), ${records.toLocaleString('en-US')} records: heap +${mb(held.heap)} MB, typed arrays +${mb(held.buffers)} MB, ${mb(total)} MB in all (${mb(total / MAX_DERIVED_LOADED)} MB per series, ${perRecord.toFixed(0)} bytes per record)`,
      `after ${codes.length} currencies were read (the bound lets the first ${codes.length - MAX_DERIVED_LOADED} go): ${mb(grew(before, overFull).heap + grew(before, overFull).buffers)} MB in all`,
      `for comparison, the dollar's series, ${days.toLocaleString('en-US')} records: ${mb(grew(empty, before).heap + grew(empty, before).buffers)} MB (${((grew(empty, before).heap + grew(empty, before).buffers) / days).toFixed(0)} bytes per record)`,
      `after a change of rates drops them all: ${mb(grew(before, dropped).heap + grew(before, dropped).buffers)} MB`,
      `loading one series (a cold read: its cross rates from the database, joined with the dollar's): ${sortedMs[Math.floor(sortedMs.length / 2)]?.toFixed(0)} ms median, ${sortedMs.at(-1)?.toFixed(0)} ms at most`,
    ];
    for (const line of lines) process.stdout.write(`${line}\n`);
  } finally {
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
