/**
 * The cross rates of the currencies other than the dollar (shared/currency-catalog.ts), read from
 * the SDDE API with the token: one run per currency and year through the common skeleton
 * (`runSync`), each checked against the currency's own band and stored with its observations.
 *
 * A catch-up reads each currency from a week before its last stored day (the central bank
 * corrects recent values), or from CURRENCIES_SINCE on an empty database: some 27 years × 42
 * currencies, so the first start must not hammer the central bank. Currencies go a few at a time
 * (`concurrency`); each request is retried with backoff, a 429's Retry-After honoured
 * (sources/http.ts); progress goes to the log, one line per stored year.
 */
import { DERIVED_CURRENCIES, type DerivedCurrency } from '../../shared/currency-catalog';
import { addDays, calendarDay, daysBetween, isIsoDate } from '../../shared/dates';
import type { CrossSource } from '../sources/types';
import { enqueueCrossEvents } from '../store/webhook-events';
import { newDays } from './sync-official-span';
import { createCrossRatesStore, type CrossInput } from '../store/cross-rates';
import { LOCKS, withAdvisoryLock } from '../store/locks';
import { REREAD_DAYS, RUN_SPAN_DAYS, splitSpan } from './catch-up';
import { type Checked, type Rejection, runSync, type Span, type SyncDeps, type SyncSummary } from './sync-run';

interface CrossPoint {
  date: string;
  value: number;
}

interface CheckedCross extends Checked {
  rows: CrossInput[];
}

/** Null when a published value is plausible for the currency, otherwise why it is not. */
export function checkCross(currency: DerivedCurrency, point: CrossPoint, today: string): string | null {
  if (!isIsoDate(point.date)) return `date ${JSON.stringify(point.date)} is not a YYYY-MM-DD calendar day`;
  if (daysBetween(today, point.date) > 1) return `date ${point.date} is more than 1 day after today (${today})`;
  const [min, max] = currency.bounds;
  if (!Number.isFinite(point.value) || point.value <= 0) return `${point.value} is not a positive number`;
  const unit = currency.quote === 'usdPerUnit' ? `USD per ${currency.code}` : `${currency.code} per USD`;
  if (point.value < min || point.value > max) return `${point.value} is outside ${min}..${max} ${unit}`;
  return null;
}

export async function syncCurrencySpan(deps: SyncDeps, source: CrossSource, currency: DerivedCurrency, span: Span): Promise<SyncSummary> {
  const { logger } = deps;
  // Where the log says it was read; a demo's values say they were simulated, as the dollar's do.
  const upstream = `${source.provider === 'DEMO' ? 'Simulated ' : ''}BCCR SDDE indicator ${currency.indicator}`;
  const outcome = await runSync<CrossPoint, CheckedCross>(
    deps,
    {
      kind: 'currencies',
      source: `${source.name} ${currency.code}`,
      label: `${currency.code} sync run`,
      warnsOnFailure: true,
      maxChunkDays: source.maxChunkDays,
      async fetchChunk(from, to, signal) {
        const values = await source.read(currency.indicator, from, to, signal);
        return [...values].map(([date, value]) => ({ date, value }));
      },
      check(answer, { today, fetchedAt }) {
        const rows: CrossInput[] = [];
        const rejected: Rejection[] = [];
        const present = new Set<string>();
        for (const point of answer) {
          if (point.date < span.from || point.date > span.to) continue;
          present.add(point.date);
          const reason = checkCross(currency, point, today);
          if (reason) rejected.push({ date: point.date, reason });
          else rows.push({ currency: currency.code, date: point.date, value: point.value, source: source.provider, fetchedAt });
        }
        return { rows, rejected, present };
      },
      report(checked) {
        for (const r of checked.rejected) logger.warn({ source: source.name, currency: currency.code, ...r }, 'rejected an upstream cross rate');
      },
      async store(checked, trx, fetchedAt) {
        const cross = createCrossRatesStore(trx);
        const before = new Map((await cross.range(currency.code, span.from, span.to)).map((r) => [r.date, r]));
        const lastDate = await cross.lastDate(currency.code);
        const counts = await cross.upsert(checked.rows, trx);
        // In the same transaction: a new cross rate makes the currency's record of that day, which subscribers are told of.
        await enqueueCrossEvents(trx, currency.code, newDays(checked.rows, before, lastDate, fetchedAt), fetchedAt);
        if (!deps.skipObservationLog) {
          await cross.observe(
            { currency: currency.code, route: source.name, source: source.provider, upstream, observedAt: fetchedAt, values: checked.rows },
            trx,
          );
        }
        for (const row of checked.rows) {
          const old = before.get(row.date);
          if (old && old.source === row.source && old.value !== row.value) {
            logger.info({ currency: currency.code, date: row.date, from: old.value, to: row.value }, 'corrected a stored cross rate');
          }
        }
        return counts;
      },
    },
    span,
  );
  return outcome.summary;
}

export interface CurrenciesCatchUpOptions {
  /** The first day read on an empty database (CURRENCIES_SINCE, 2000-01-01 by default). */
  since: string;
  /** How many currencies are read at once. */
  concurrency: number;
  /** The span to read instead of catching up (the CLI's --from/--to). */
  span?: Span;
}

export interface CurrenciesCatchUpResult {
  /** False when another instance held the lock and this one did nothing. */
  ran: boolean;
  ok: boolean;
  runs: SyncSummary[];
}

/** The span a currency needs: the last week again through today, or everything since `since`. */
async function spanFor(deps: SyncDeps, source: CrossSource, currency: DerivedCurrency, since: string): Promise<Span> {
  const today = calendarDay(deps.clock());
  const last = await createCrossRatesStore(deps.db).lastDateFrom(currency.code, source.provider);
  const from = last ? addDays(last < today ? last : today, -(REREAD_DAYS - 1)) : since;
  return { from: from < since ? since : from, to: today };
}

/** Brings every currency of `currencies` up to date, a few at a time; a currency stops at its first failed run. */
export async function catchUpCurrencies(
  deps: SyncDeps,
  source: CrossSource,
  currencies: readonly DerivedCurrency[],
  options: CurrenciesCatchUpOptions,
): Promise<CurrenciesCatchUpResult> {
  const locked = await withAdvisoryLock(deps.db, LOCKS.currenciesSync, async () => {
    const runs: SyncSummary[] = [];
    const queue = [...currencies];
    const worker = async () => {
      for (let currency = queue.shift(); currency; currency = queue.shift()) {
        if (deps.signal?.aborted) return;
        const span = options.span ?? (await spanFor(deps, source, currency, options.since));
        const parts = splitSpan(span.from, span.to, RUN_SPAN_DAYS);
        for (const [i, part] of parts.entries()) {
          const summary = await syncCurrencySpan(deps, source, currency, part);
          runs.push(summary);
          if (summary.status === 'failed') break;
          if (parts.length > 1) {
            deps.logger.info(
              { currency: currency.code, ...part, inserted: summary.inserted, updated: summary.updated, run: `${i + 1}/${parts.length}` },
              'currencies backfill progress',
            );
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
    return runs;
  });
  if (!locked.acquired) return { ran: false, ok: true, runs: [] };
  const runs = locked.value;
  const ok = runs.every((r) => r.status === 'succeeded');
  const stored = runs.reduce((n, r) => n + r.inserted + r.updated, 0);
  deps.logger.info(
    { currencies: currencies.length, runs: runs.length, failed: runs.filter((r) => r.status === 'failed').length, stored },
    'currencies sync done',
  );
  return { ran: true, ok, runs };
}

/** Two currencies read at once by the server: the backfill takes minutes, not hours, and the central bank is not hammered. */
export const CURRENCIES_CONCURRENCY = 2;

/**
 * Once the other currencies are up to date, they are read again after this long, not on every
 * tick of the dollar's schedule: a cross rate changes once a day, and 42 requests every half hour
 * would be asking the central bank for nothing. A run that did not complete is tried on the next tick.
 */
export const CURRENCIES_EVERY_MS = 3 * 3_600_000;

/** The scheduler's job for the other currencies (jobs/scheduler.ts `extraJobs`). */
export function scheduledCurrencies(deps: SyncDeps, source: CrossSource, since: string, now: () => number = Date.now): (signal: AbortSignal) => Promise<void> {
  let upToDateAt = Number.NEGATIVE_INFINITY;
  return async (signal) => {
    if (now() - upToDateAt < CURRENCIES_EVERY_MS) return;
    const result = await catchUpCurrencies({ ...deps, signal }, source, DERIVED_CURRENCIES, { since, concurrency: CURRENCIES_CONCURRENCY });
    if (result.ran && result.ok) upToDateAt = now();
  };
}
