/**
 * Every method of the client, with the types its answers have. This file is type-checked twice
 * by test/sdk/types.test.ts: against the source (sdk/tsconfig.json maps "@crc-rates/sdk" to
 * src/index.ts) and against the built package (dist/*.d.ts, *.d.mts) as a user installs it.
 * The `@ts-expect-error` lines must stay errors: they prove the parameters are typed.
 */
import {
  ExchangeRateClient,
  ExchangeRateError,
  type Analytics,
  type BankingRates,
  type BestRate,
  type Chart,
  type Conversion,
  type ExchangeRate,
  type ExchangeRateErrorCode,
  type FetchSignal,
  type Health,
  type Insights,
  type MonthClose,
  type PeriodStats,
  type Provenance,
  type Purpose,
  type PurposeCitation,
  type PurposeInfo,
  type RateAnswer,
  type RateLimitInfo,
  type RequestOptions,
  type Revision,
  type Usage,
} from '@crc-rates/sdk';

/** The first item of a list in an answer; the tour reads only lists that have one. */
function first<T>(items: readonly T[], what: string): T {
  const [item] = items;
  if (item === undefined) throw new Error(`${what} is empty`);
  return item;
}

export async function tour(apiKey: string): Promise<string[]> {
  const client = new ExchangeRateClient({ apiKey, baseUrl: 'http://localhost:3000/api/v1', timeoutMs: 5_000, retries: 2 });
  const lines: string[] = [];

  // The official series.
  const latest: ExchangeRate = await client.getLatest();
  const sell: number = (await client.getLatest()).sell;
  const source: 'BCCR' | 'Hacienda' | 'DEMO' = latest.source;
  lines.push(`${latest.date}: buy ${latest.buy}, sell ${sell} (${source})`);

  const byString: ExchangeRate = await client.getByDate('2025-01-15');
  // A Date is sent as its calendar day in Costa Rica (here 2025-01-15, 21:00 there).
  const byDate: number = (await client.getByDate(new Date('2025-01-16T03:00:00Z'))).buy;
  lines.push(`${byString.date} ${byDate}`);

  // The euro of today may be Hacienda's, before the central bank publishes: sell only, buy null.
  const euro: RateAnswer = await client.getLatest({ currency: 'EUR' });
  const euroBuy: number | null = euro.buy;
  const yen: ExchangeRate = await client.getByDate('2025-01-15', { currency: 'JPY' });
  lines.push(`${euro.sell} ${euroBuy ?? 'no buy'} (${euro.source}) ${yen.buy}`);

  const history: ExchangeRate[] = await client.getHistory({ days: 7 });
  const defaultHistory: ExchangeRate[] = await client.getHistory();
  const range: ExchangeRate[] = await client.getRange({ from: '2025-01-01', to: new Date(Date.UTC(2025, 0, 31, 12)) });
  lines.push(`${history.length} ${defaultHistory.length} ${range.length}`);

  const analytics: Analytics = await client.getAnalytics({ days: 30 });
  const between: Analytics = await client.getAnalytics({ from: '2024-01-01', to: '2024-12-31' });
  const trend: 'up' | 'down' | 'stable' = analytics.sell.trend;
  const volatility: number = between.buy.volatility;
  lines.push(`${trend} ${volatility} ${(await client.getAnalytics()).count}`);

  const stats: PeriodStats[] = await client.getStats({ period: 'monthly', from: '2024-01-01', to: '2024-12-31' });
  const yearly: PeriodStats[] = await client.getStats({ period: 'yearly', from: '2020-01-01', to: '2024-12-31' });
  const average: number = first(stats, 'the monthly stats').sell.average;
  lines.push(`${yearly.map((p) => p.period).join(',')} ${average}`);

  const close: MonthClose = await client.getClose('2024-12');
  const closing: ExchangeRate | null = close.closing;
  const missing: string[] = close.missing;
  lines.push(`${close.month} ${close.complete} ${closing?.sell ?? 'no closing rate'} ${missing.length} ${close.sell.average}`);

  const provenance: Provenance = await client.getProvenance('2025-01-15');
  const readFrom: string = provenance.upstream.sell;
  const replaced: string[] = provenance.revisions.map((r) => `${r.sell} (${r.source}) until ${r.replacedAt}`);
  const revisions: Revision[] = await client.getRevisions('2025-01-01', '2025-01-31');
  const revisedFrom: 'BCCR' | 'Hacienda' | 'DEMO' | undefined = revisions[0]?.before.source;
  lines.push(`${provenance.record.date} ${readFrom} ${provenance.observations} ${replaced.join(';')} ${provenance.digest} ${revisedFrom ?? 'never revised'}`);

  const chart: Chart = await client.getChart({ days: 365, points: 90 });
  const slope: number = chart.trend.sell.slopePerDay;
  const firstPoint: string = first(chart.series, 'the chart series').date;
  lines.push(`${chart.points} ${slope} ${firstPoint}`);

  // The converter.
  const conversion: Conversion = await client.convert({ amount: 100, from: 'USD', to: 'CRC', rate: 'sell' });
  const exact: Conversion = await client.convert({ amount: '0.1', rate: 'buy', date: '2025-01-15' });
  const result: number = conversion.result;
  lines.push(`${result} ${exact.rateValue} ${exact.to}`);

  // Rates for a purpose, and inverses for a ledger in colones.
  const purposes: PurposeInfo[] = await client.getPurposes();
  const customs: Purpose = 'customs';
  const invoice: ExchangeRate = await client.getByDate('2025-01-15', { purpose: 'invoice', inverse: true });
  const rule: PurposeCitation | undefined = invoice.purpose;
  const perColon: number | undefined = invoice.sellInverse;
  const inverses: ExchangeRate[] = await client.getRange({ from: '2025-01-01', to: '2025-01-31', inverse: true });
  const paid: Conversion = await client.convert({ amount: 100, from: 'CRC', purpose: 'consumer-pay-dollars' });
  const fiscal: MonthClose = await client.getClose('2024-03', { purpose: 'income-tax' });
  const fiscalRate: number | null | undefined = fiscal.purposeRate?.value;
  lines.push(
    `${purposes.length} ${customs} ${rule?.side ?? '-'} ${perColon ?? '-'} ${inverses.length} ${paid.rate} ${fiscal.purposeRate?.date ?? '-'} ${fiscalRate ?? '-'}`,
  );

  // Banking (ventanilla).
  const banking: BankingRates = await client.getBankingRates({ type: 'public_bank' });
  const anyDay: BankingRates = await client.getBankingRates({ date: new Date() });
  const spread: number = first(banking.institutions, 'the public banks').spread;
  const updatedAt: string | null = first(anyDay.institutions, "the day's institutions").updatedAt;
  lines.push(`${spread} ${updatedAt ?? 'unknown'}`);

  const best: BestRate = await client.getBestRate({ operation: 'sell', type: 'exchange_house' });
  const top = first(best.ranking, 'the ranking');
  const vsOfficial: number | null = top.vsOfficial;
  const rank: number = top.rank;
  lines.push(`${best.best.name} ${rank} ${vsOfficial ?? '-'}`);

  // Insights, usage, health.
  const insights: Insights = await client.getInsights({ days: 30, locale: 'en' });
  const verdict: 'appreciation' | 'depreciation' | 'stable' = insights.verdict;
  const causes: string[] = insights.causes;
  const metrics: Analytics = insights.metrics;
  lines.push(`${verdict}: ${insights.summary} ${causes.length} ${metrics.count}`);

  const usage: Usage = await client.getUsage();
  const remaining: number = usage.remaining;
  const plan: 'pro' | 'custom' = usage.plan;
  lines.push(`${plan} ${remaining}/${usage.monthlyQuota}`);

  const health: Health = await client.health();
  const latestDate: string | null = health.latestDate;
  lines.push(`${health.status} ${latestDate ?? 'no data'}`);

  // The limits of the last answer.
  const limits: RateLimitInfo | null = client.lastRateLimit;
  const left: number | null = limits?.remaining ?? null;
  const quotaReset: string | null = limits?.quotaReset ?? null;
  lines.push(`${left} ${quotaReset}`);

  // Typed errors.
  try {
    await client.getByDate('2024-02-30');
  } catch (error) {
    if (error instanceof ExchangeRateError) {
      const code: ExchangeRateErrorCode = error.code;
      const status: number | null = error.status;
      const retryAfter: number | null = error.retryAfter;
      if (code === 'RATE_LIMITED' || code === 'QUOTA_EXCEEDED') lines.push(`retry in ${retryAfter} s`);
      else if (code === 'TIMEOUT' || code === 'NETWORK_ERROR') lines.push('transport failure');
      else lines.push(`${status}: ${error.message}`);
    }
  }

  return lines;
}

/**
 * Cancelling: a signal for the client and one per call, a ceiling on retry waits, a bare origin
 * as the base. (The signal comes from the caller: this file is also checked without the DOM's or
 * Node's types, where the program has no AbortController of its own.)
 */
export async function cancellable(apiKey: string, shutdown: FetchSignal, call: FetchSignal): Promise<string> {
  const client = new ExchangeRateClient({ apiKey, baseUrl: 'http://localhost:3000', maxRetryWaitMs: 30_000, signal: shutdown });
  const ceiling: number = client.maxRetryWaitMs;
  const options: RequestOptions = { signal: call };
  const latest: ExchangeRate = await client.getLatest(options);
  const week: ExchangeRate[] = await client.getHistory({ days: 7 }, { signal: call });
  const december: MonthClose = await client.getClose('2024-12', options);
  const revisions: Revision[] = await client.getRevisions('2025-01-01', '2025-01-31', options);
  const health: Health = await client.health({});
  return `${ceiling} ${latest.sell} ${week.length} ${december.month} ${revisions.length} ${health.status}`;
}

/** Wrong parameters do not compile. */
export async function mistakes(client: ExchangeRateClient): Promise<void> {
  // @ts-expect-error days is a number
  await client.getHistory({ days: '7' });
  // @ts-expect-error no such parameter (the names are the server's)
  await client.getHistory({ day: 7 });
  // @ts-expect-error a date is a string or a Date
  await client.getByDate(20250115);
  // @ts-expect-error from and to are both required
  await client.getRange({ from: '2025-01-01' });
  // @ts-expect-error days or from/to, not both
  await client.getAnalytics({ days: 30, from: '2025-01-01', to: '2025-01-31' });
  // @ts-expect-error the period is monthly or yearly
  await client.getStats({ period: 'weekly', from: '2024-01-01', to: '2024-12-31' });
  // @ts-expect-error the month is a YYYY-MM string
  await client.getClose(202412);
  // @ts-expect-error the month is required
  await client.getClose();
  // @ts-expect-error the day is required
  await client.getProvenance();
  // @ts-expect-error both ends of the span are required
  await client.getRevisions('2025-01-01');
  // @ts-expect-error only CRC and the codes of /currencies
  await client.convert({ amount: 100, from: 'XYZ' });
  // @ts-expect-error only the codes of /currencies
  await client.getLatest({ currency: 'XYZ' });
  // @ts-expect-error the amount is a number or a numeral string
  await client.convert({ amount: true });
  // @ts-expect-error the amount is required
  await client.convert({ from: 'USD' });
  // @ts-expect-error the rate is buy or sell
  await client.convert({ amount: 1, rate: 'mid' });
  // @ts-expect-error the rate or the purpose that names it, not both
  await client.convert({ amount: 1, rate: 'buy', purpose: 'invoice' });
  // @ts-expect-error purposes are the ids of /purposes (the Spanish aliases are the add-on's)
  await client.getByDate('2025-01-15', { purpose: 'factura' });
  // @ts-expect-error inverse is a boolean
  await client.getRange({ from: '2025-01-01', to: '2025-01-31', inverse: 'yes' });
  // @ts-expect-error not an institution type
  await client.getBankingRates({ type: 'bank' });
  // @ts-expect-error the operation is required
  await client.getBestRate({ type: 'public_bank' });
  // @ts-expect-error locales are es and en
  await client.getInsights({ locale: 'fr' });
  // @ts-expect-error the answer is a record, not a string
  const wrong: string = await client.getLatest();
  // @ts-expect-error the euro's buy may be null (Hacienda's provisional record of today)
  const euroBuyNumber: number = (await client.getLatest({ currency: 'EUR' })).buy;
  // @ts-expect-error an apiKey is required
  new ExchangeRateClient({ baseUrl: 'http://localhost:3000/api/v1' });
  // @ts-expect-error a signal is an AbortSignal
  await client.getLatest({ signal: 'stop' });
  // @ts-expect-error the call options come after the parameters
  await client.getHistory({ signal: undefined, days: 7 });
  // @ts-expect-error the ceiling is a number of milliseconds
  new ExchangeRateClient({ apiKey: 'k', maxRetryWaitMs: '10s' });
  void wrong;
  void euroBuyNumber;
}
