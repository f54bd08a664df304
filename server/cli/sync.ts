/**
 * `npm run sync -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--banking] [--currencies]`: ingests the official
 * series for a span (default: catch up), with a progress bar on a terminal and plain lines
 * otherwise, and a summary on stdout. The exit code follows the operator contract of
 * `jobs/sync-outcome.ts` (1 upstream failure, 2 rows rejected, 3 past days still without a rate),
 * with its reason on stderr; 1 too when another instance is syncing and nothing was done.
 */
import { addDays, calendarDay, isIsoDate } from '../../shared/dates';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { catchUpOfficial, type SpanOptions } from '../jobs/catch-up';
import { BANKING_DEFAULT_DAYS, syncBanking, type BankingSummary } from '../jobs/sync-banking';
import type { SyncSummary } from '../jobs/sync-run';
import { bankingFaults, currenciesFaults, exitCodeOf, listDays, monexFaults, officialFaults, type ExitCode, type Fault } from '../jobs/sync-outcome';
import { catchUpMonex } from '../jobs/sync-monex';
import { CURRENCIES_CONCURRENCY, catchUpCurrencies } from '../jobs/sync-currencies';
import { DERIVED_CURRENCIES } from '../../shared/currency-catalog';
import { openRuntime } from '../runtime';
import { readCommandLine } from './command-line';
import { runCli, UsageError } from './run';

const USAGE = 'usage: npm run sync -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--banking] [--currencies] [--monex]';

const HELP = `${USAGE}

Fetches the official buy and sell rates from the central bank and stores them. Without --from it
catches up from the last stored day.

  --from DATE   the first day of the span (YYYY-MM-DD)
  --to DATE     the last day of the span (needs --from; without it, the latest day published)
  --banking     also the window (ventanilla) quotes of the span (without --from, the last 7 days)
  --currencies  also the other currencies' cross rates (needs BCCR_TOKEN; without --from, each
                from a week before its last stored day, or from CURRENCIES_SINCE)
  --monex       also MONEX sessions (needs BCCR_TOKEN; without --from, from a week before the
                last stored day, or from MONEX_SINCE)
  -h, --help    show this text

Exit codes: 0 done; 1 an upstream could not be read (nothing of that run was stored) or another
instance is syncing; 2 rows failed the sanity checks, or a mistake in the command line; 3 days of
the span before today still have no rate.`;

const OPTIONS = {
  from: { type: 'string' },
  to: { type: 'string' },
  banking: { type: 'boolean' },
  currencies: { type: 'boolean' },
  monex: { type: 'boolean' },
} as const;

function progressPrinter(stream: NodeJS.WriteStream): SpanOptions['onProgress'] {
  if (stream.isTTY) {
    return (run, done, total) => {
      const width = 30;
      const filled = Math.round((done / total) * width);
      stream.write(`\r  ${run.from} → ${run.to} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      if (done === total) stream.write('\n');
    };
  }
  return (run, done, total, chunk) => stream.write(`fetched ${chunk[0]}..${chunk[1]} (${done}/${total} of ${run.from}..${run.to})\n`);
}

export function describeRuns(runs: readonly SyncSummary[]): string {
  const lines: string[] = [];
  for (const r of runs) {
    const head = `${r.status === 'succeeded' ? 'ok    ' : 'FAILED'} ${r.source} ${r.from}..${r.to}`;
    lines.push(
      r.status === 'succeeded'
        ? `${head}: ${r.inserted} new, ${r.updated} updated, ${r.rejected.length} rejected, ${r.missing.length} days without a value`
        : `${head}: ${r.error ?? 'unknown error'} (nothing of this run was stored)`,
    );
    for (const x of r.rejected) lines.push(`  rejected ${x.date}: ${x.reason}`);
    if (r.missing.length > 0) lines.push(`  no value for: ${listDays(r.missing)}`);
  }
  return lines.join('\n');
}

export function describeBanking(b: BankingSummary): string {
  if (b.status === 'skipped') return `skipped window quotes ${b.from}..${b.to}: another instance is syncing them`;
  if (b.status === 'failed') return `FAILED window quotes ${b.source} ${b.from}..${b.to}: ${b.error ?? 'unknown error'} (nothing of this run was stored)`;
  const lines = [
    `ok     window quotes ${b.source} ${b.from}..${b.to}: ${b.inserted} new, ${b.updated} updated, ${b.rejected.length} rejected, ${b.missing.length} days without quotes`,
  ];
  for (const x of b.rejected) lines.push(`  rejected ${x.date}: ${x.reason}`);
  if (b.unknownInstitutions.length) lines.push(`  not in the catalog (stored anyway): ${b.unknownInstitutions.join(', ')}`);
  return lines.join('\n');
}

/** Prints why the sync did not fully succeed, one line per fault of the winning rule, and returns the code. */
function exitWith(faults: readonly Fault[]): ExitCode {
  const { code, reasons } = exitCodeOf(faults);
  for (const reason of reasons) process.stderr.write(`exit ${code}: ${reason}\n`);
  return code;
}

runCli(async () => {
  const { values, positionals, help, problem } = readCommandLine(process.argv.slice(2), OPTIONS);
  if (help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (problem) throw new UsageError(`${problem}\n${USAGE}`);
  if (positionals.length > 0) throw new UsageError(`sync takes no arguments (got "${positionals.join(' ')}")\n${USAGE}`);
  for (const name of ['from', 'to'] as const) {
    const value = values[name];
    if (value !== undefined && !isIsoDate(value)) throw new UsageError(`--${name} must be a calendar date as YYYY-MM-DD (got "${value}")\n${USAGE}`);
  }
  if ((values.from === undefined) !== (values.to === undefined) && values.to !== undefined) {
    throw new UsageError(`--to needs --from\n${USAGE}`);
  }
  if (values.from && values.to && values.from > values.to) throw new UsageError(`--from must not be after --to\n${USAGE}`);

  const config = loadConfig();
  if (values.currencies && !config.bccrToken) {
    throw new UsageError('--currencies needs BCCR_TOKEN: the other currencies come only from the central bank’s SDDE API');
  }
  if (values.monex && !config.bccrToken) {
    throw new UsageError('--monex needs BCCR_TOKEN: MONEX (cuadro 219) comes only from the central bank’s SDDE API');
  }
  // Progress and the summary go to the terminal; the JSON log only carries warnings and errors.
  const runtime = await openRuntime(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  try {
    const deps = { db: runtime.db, logger: runtime.logger, changes: runtime.changes, clock: () => new Date() };
    const to = values.to ?? (values.from ? addDays(calendarDay(new Date()), 1) : undefined);
    const progress = progressPrinter(process.stderr);
    const result = await catchUpOfficial(deps, runtime.sources, { from: values.from, to, onProgress: progress });
    if (!result.ran) {
      // Not an upstream fault, but nothing was synced either: a cron job should try again later.
      process.stderr.write('exit 1: another instance is syncing the official series right now; nothing done\n');
      return 1;
    }
    process.stdout.write(`${describeRuns(result.runs)}\n`);
    const faults = officialFaults(result);
    if (values.currencies && runtime.crossSource) {
      const today = calendarDay(new Date());
      const span = values.from ? { from: values.from, to: to && to < today ? to : today } : undefined;
      const currencies = await catchUpCurrencies(deps, runtime.crossSource, DERIVED_CURRENCIES, {
        since: config.currenciesSince,
        concurrency: CURRENCIES_CONCURRENCY,
        ...(span ? { span } : {}),
      });
      if (currencies.runs.length > 0) process.stdout.write(`${describeRuns(currencies.runs)}\n`);
      faults.push(...currenciesFaults(currencies));
    }
    if (values.monex && runtime.monexSource) {
      const today = calendarDay(new Date());
      const span = values.from ? { from: values.from, to: to && to < today ? to : today } : undefined;
      const monex = await catchUpMonex(deps, runtime.monexSource, { since: config.monexSince, ...(span ? { span } : {}) });
      if (monex.runs.length > 0) process.stdout.write(`${describeRuns(monex.runs)}\n`);
      faults.push(...monexFaults(monex));
    }
    if (!values.banking) return exitWith(faults);

    // The window quotes of the same span (today at most: there are no quotes for tomorrow), or of
    // the last week; spelled out here so that the progress names the days, not a placeholder.
    const today = calendarDay(new Date());
    const span = values.from ? { from: values.from, to: to && to < today ? to : today } : { from: addDays(today, -(BANKING_DEFAULT_DAYS - 1)), to: today };
    const banking = await syncBanking(deps, runtime.ventanilla, span, (...args) => progress?.(span, ...args));
    process.stdout.write(`${describeBanking(banking)}\n`);
    return exitWith([...faults, ...bankingFaults(banking)]);
  } finally {
    await runtime.close();
  }
});
