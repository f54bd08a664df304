/**
 * What `npm run sync` tells the operator through its exit code (README, "Keeping the data"). Each
 * code is a rule, and when several apply the first one wins, which is also the lowest code:
 *   1  an upstream answer could not be fetched or parsed; nothing of that run was stored;
 *   2  rows failed the sanity checks; they were not stored, the valid ones were;
 *   3  days of the span before today still have no stored rate (what came was stored);
 *   0  otherwise.
 */
import type { CurrenciesCatchUpResult } from './sync-currencies';
import type { MonexCatchUpResult } from './sync-monex';
import type { SyncSummary } from './sync-run';
import type { CatchUpResult } from './catch-up';
import type { BankingSummary } from './sync-banking';

export interface Fault {
  code: 1 | 2 | 3;
  reason: string;
}

export type ExitCode = 0 | Fault['code'];

/** Days as a short list: the first `max`, then how many there are in all. */
export function listDays(days: readonly string[], max = 12): string {
  return days.length > max ? `${days.slice(0, max).join(', ')} … (${days.length} days)` : days.join(', ');
}

const unique = (days: readonly string[]) => [...new Set(days)];

/** The faults of sync runs: a run that could not be read (1), what the sanity checks refused (2, counted as `what`). */
function runFaults(runs: readonly SyncSummary[], what: string): Fault[] {
  return runs.flatMap((r): Fault[] => {
    const run = `${r.source} ${r.from}..${r.to}`;
    if (r.status === 'failed') {
      return [{ code: 1, reason: `${run} could not be fetched or parsed (${r.error ?? 'unknown error'}); nothing of that run was stored` }];
    }
    if (r.rejected.length === 0) return [];
    const days = unique(r.rejected.map((x) => x.date));
    return [
      {
        code: 2,
        reason: `${run}: ${r.rejected.length} ${what} failed the sanity checks and were not stored, on ${listDays(days)}; the valid ones were stored`,
      },
    ];
  });
}

/** The faults of an official sync that ran (`result.ran`). A failed fallback (Hacienda, asked for today) counts too. */
export function officialFaults(result: CatchUpResult): Fault[] {
  const faults = runFaults(result.runs, 'rows');
  if (result.unfilled.length > 0) {
    faults.push({ code: 3, reason: `${result.unfilled.length} days before today still have no stored rate: ${listDays(result.unfilled)}` });
  }
  return faults;
}

/**
 * The faults of a window-quote sync. Days without quotes are none: unlike the official series,
 * the window quotes are snapshots of the days the central bank gathered some, with no promise of
 * one every calendar day nor before the table began (a long `--from` span would always fail), and
 * the API's default is the latest snapshot, wherever it falls.
 */
export function bankingFaults(b: BankingSummary): Fault[] {
  const run = `window quotes ${b.source} ${b.from}..${b.to}`;
  if (b.status === 'skipped') return [{ code: 1, reason: `${run}: another instance is syncing them right now; nothing done` }];
  if (b.status === 'failed') {
    return [{ code: 1, reason: `${run} could not be fetched or parsed (${b.error ?? 'unknown error'}); nothing of that run was stored` }];
  }
  if (b.rejected.length === 0) return [];
  const days = unique(b.rejected.map((x) => x.date));
  return [
    { code: 2, reason: `${run}: ${b.rejected.length} quotes failed the sanity checks and were not stored, on ${listDays(days)}; the valid ones were stored` },
  ];
}

/** The faults of the currencies' sync: a run that failed (1), cross rates refused (2); their gaps are no fault. */
export function currenciesFaults(result: CurrenciesCatchUpResult): Fault[] {
  if (!result.ran) return [{ code: 1, reason: 'another instance is syncing the other currencies right now; nothing done' }];
  return runFaults(result.runs, 'values');
}

/** The faults of the MONEX sync: a run that failed (1), days refused (2); days without a publication are no fault. */
export function monexFaults(result: MonexCatchUpResult): Fault[] {
  if (!result.ran) return [{ code: 1, reason: 'another instance is syncing MONEX right now; nothing done' }];
  return runFaults(result.runs, 'MONEX days');
}

/** The code of the first rule that applies (0 when none does), with the reasons that gave it. */
export function exitCodeOf(faults: readonly Fault[]): { code: ExitCode; reasons: string[] } {
  const code = faults.reduce<ExitCode>((lowest, f) => (lowest === 0 || f.code < lowest ? f.code : lowest), 0);
  return { code, reasons: faults.filter((f) => f.code === code).map((f) => f.reason) };
}
