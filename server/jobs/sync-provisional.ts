/**
 * Hacienda's euro as today's provisional EUR sell, through the common skeleton (`runSync`): read
 * only while the central bank's cross rate of today (indicator 333) is not stored, checked
 * against the euro's band, and kept apart from the cross series (store/provisional-rates.ts), so
 * it never enters a window, a statistic or a chart. Hacienda needs no token: this runs with and
 * without BCCR_TOKEN. Only today's reading is kept; older rows are pruned on each write.
 */
import { calendarDay } from '../../shared/dates';
import { derivedCurrency } from '../../shared/currency-catalog';
import type { HaciendaEuro, HaciendaEuroSource } from '../sources/hacienda-euro';
import { createCrossRatesStore } from '../store/cross-rates';
import { createProvisionalRatesStore, type ProvisionalRow } from '../store/provisional-rates';
import { checkCross } from './sync-currencies';
import { type Checked, type Rejection, runSync, type SyncDeps, type SyncSummary } from './sync-run';

const EURO = 'EUR';

interface CheckedEuro extends Checked {
  row: ProvisionalRow | null;
}

/** Null when the reading can fill today, otherwise why not. */
export function checkProvisional(euro: HaciendaEuro, today: string): string | null {
  const currency = derivedCurrency(EURO);
  if (!currency) return 'the euro is not in the catalog';
  if (euro.date !== today) return `Hacienda's euro is dated ${euro.date}, not today (${today})`;
  return checkCross(currency, { date: euro.date, value: euro.dolares }, today);
}

/**
 * Reads Hacienda's euro unless the central bank's cross rate of today is stored already (it wins,
 * and a provisional value would never be answered). Null when nothing was read for that reason.
 */
export async function syncProvisionalEuro(deps: SyncDeps, source: HaciendaEuroSource): Promise<SyncSummary | null> {
  const today = calendarDay(deps.clock());
  const published = await createCrossRatesStore(deps.db).range(EURO, today, today);
  if (published.some((r) => r.source !== 'Hacienda')) return null;
  const outcome = await runSync<HaciendaEuro, CheckedEuro>(
    deps,
    {
      kind: 'provisional',
      source: `hacienda ${EURO}`,
      label: 'provisional euro sync',
      // Nothing else reports it: Hacienda down is worth one line, the routes answer as without it.
      warnsOnFailure: true,
      maxChunkDays: 1,
      fetchChunk: async (_from, _to, signal) => [await source.read(signal)],
      check(answer, { fetchedAt }) {
        const rejected: Rejection[] = [];
        let row: ProvisionalRow | null = null;
        for (const euro of answer) {
          const reason = checkProvisional(euro, today);
          if (reason) rejected.push({ date: euro.date, reason });
          else
            row = {
              currency: EURO,
              date: euro.date,
              published: euro.dolares,
              colones: euro.colones,
              source: source.provider,
              upstream: source.url,
              fetchedAt,
            };
        }
        return { row, rejected, present: new Set(row ? [row.date] : []) };
      },
      report(checked) {
        for (const r of checked.rejected) deps.logger.warn({ source: 'hacienda', currency: EURO, ...r }, 'rejected a provisional rate');
      },
      store: (checked, trx) => (checked.row ? createProvisionalRatesStore(trx).put(checked.row, today, trx) : Promise.resolve({ inserted: 0, updated: 0 })),
    },
    { from: today, to: today },
  );
  return outcome.summary;
}

/** The scheduler's job: on every tick, after the dollar and the other currencies. */
export function scheduledProvisionalEuro(deps: SyncDeps, source: HaciendaEuroSource): (signal: AbortSignal) => Promise<void> {
  return async (signal) => {
    await syncProvisionalEuro({ ...deps, signal }, source);
  };
}
