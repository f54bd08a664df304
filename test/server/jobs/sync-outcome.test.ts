/**
 * The exit-code rules of `npm run sync` on summaries alone: the first rule that applies wins,
 * across the official series and the window quotes.
 */
import type { CatchUpResult } from '../../../server/jobs/catch-up';
import type { BankingSummary } from '../../../server/jobs/sync-banking';
import type { SyncSummary } from '../../../server/jobs/sync-run';
import { bankingFaults, exitCodeOf, officialFaults } from '../../../server/jobs/sync-outcome';

const run = (over: Partial<SyncSummary> = {}): SyncSummary => ({
  status: 'succeeded',
  source: 'bccr-sdde',
  from: '2026-01-01',
  to: '2026-01-10',
  inserted: 10,
  updated: 0,
  rejected: [],
  missing: [],
  ...over,
});
const official = (runs: SyncSummary[], unfilled: string[] = []): CatchUpResult => ({
  ran: true,
  ok: runs.every((r) => r.status === 'succeeded'),
  runs,
  unfilled,
});
const banking = (over: Partial<BankingSummary> = {}): BankingSummary => ({
  status: 'succeeded',
  source: 'bccr-sdde',
  from: '2026-01-01',
  to: '2026-01-10',
  inserted: 110,
  updated: 0,
  rejected: [],
  missing: [],
  unknownInstitutions: [],
  ...over,
});
const rejected = [{ date: '2026-01-02', reason: 'buy 5 is outside 100..2000 CRC' }];

it('is 0 with no reason when nothing went wrong, days without window quotes included', () => {
  expect(exitCodeOf([...officialFaults(official([run()])), ...bankingFaults(banking({ missing: ['2026-01-03'] }))])).toEqual({ code: 0, reasons: [] });
});

it('gives the lowest rule that applies, with only its reasons', () => {
  const faults = [
    ...officialFaults(official([run({ rejected, missing: ['2026-01-02'] })], ['2026-01-02'])),
    ...bankingFaults(banking({ status: 'failed', error: 'bccr-sdde: HTTP 500', inserted: 0 })),
  ];
  expect(exitCodeOf(faults)).toEqual({
    code: 1,
    reasons: ['window quotes bccr-sdde 2026-01-01..2026-01-10 could not be fetched or parsed (bccr-sdde: HTTP 500); nothing of that run was stored'],
  });
  expect(exitCodeOf(faults.filter((f) => f.code !== 1))).toMatchObject({ code: 2 });
  expect(exitCodeOf(faults.filter((f) => f.code === 3))).toEqual({ code: 3, reasons: ['1 days before today still have no stored rate: 2026-01-02'] });
});

it("counts a failed fallback for today as an answer that could not be read, whatever the central bank's runs did", () => {
  const today = run({ status: 'failed', source: 'hacienda', from: '2026-01-11', to: '2026-01-11', inserted: 0, error: 'hacienda: HTTP 503' });
  expect(exitCodeOf(officialFaults(official([run(), today])))).toMatchObject({ code: 1 });
});

it('is 1 for window quotes another instance is syncing: nothing of them was done', () => {
  expect(exitCodeOf(bankingFaults(banking({ status: 'skipped', inserted: 0 })))).toEqual({
    code: 1,
    reasons: ['window quotes bccr-sdde 2026-01-01..2026-01-10: another instance is syncing them right now; nothing done'],
  });
});

it('names each rejected day once, however many quotes of it were rejected', () => {
  const twice = [...rejected, { date: '2026-01-02', reason: 'BAC: sell 5 is outside 100..2000 CRC' }];
  expect(exitCodeOf(bankingFaults(banking({ rejected: twice }))).reasons).toEqual([
    'window quotes bccr-sdde 2026-01-01..2026-01-10: 2 quotes failed the sanity checks and were not stored, on 2026-01-02; the valid ones were stored',
  ]);
});
