/**
 * The data both MCP transports are tested on, and the calls: each tool with arguments as a model
 * sends them (numbers as JSON numbers) next to the REST query that means the same.
 */
import { createBankingStore, type InstitutionInput, type QuoteInput } from '../../../server/store/banking';
import { createMonexStore } from '../../../server/store/monex';
import { crossRate, rate, type TestApp } from '../../helpers/app';
import { falling } from '../insights/series';

/** Noon of 2025-01-30 in Costa Rica (UTC−6): January is stored up to today. */
export const NOW = new Date('2025-01-30T18:00:00Z');

const institutions: InstitutionInput[] = [
  { id: 'banco-nacional', name: 'Banco Nacional de Costa Rica', type: 'public_bank', known: true },
  { id: 'banco-de-costa-rica', name: 'Banco de Costa Rica', type: 'public_bank', known: true },
  { id: 'bac', name: 'Banco BAC San José', type: 'private_bank', known: true },
];

const quotes: QuoteInput[] = [
  { institutionId: 'banco-nacional', buy: 505, sell: 515, updatedAt: new Date('2025-01-30T14:30:00Z') },
  { institutionId: 'banco-de-costa-rica', buy: 506, sell: 514, updatedAt: new Date('2025-01-30T14:30:00Z') },
  { institutionId: 'bac', buy: 507, sell: 513.5, updatedAt: new Date('2025-01-30T14:30:00Z') },
];

/** January 2025 falling by ₡0.25 a day (sell ₡520.10 to ₡512.85, buy ₡6.30 below) and one window snapshot. */
export async function seed(t: TestApp): Promise<void> {
  await t.seed(falling().map((p) => rate(p.date, p.buy, p.sell)));
  // The euro on a Wednesday and a Friday (the weekend after has none), the yen once.
  await t.seedCross([crossRate('EUR', '2025-01-15', 1.03), crossRate('EUR', '2025-01-17', 1.02), crossRate('JPY', '2025-01-15', 156.42)]);
  await createBankingStore(t.database.db).saveDay({ date: '2025-01-30', source: 'bccr-site', fetchedAt: NOW, institutions, quotes });
  // MONEX from Friday 2025-01-24 to Wednesday 2025-01-29: sessions on business days, none on the weekend.
  const day = (date: string, session: boolean, average = 0) => ({
    date,
    session,
    average: session ? average : null,
    min: session ? average - 1.25 : null,
    max: session ? average + 2 : null,
    volume: session ? 14.5 : null,
    volumeUnit: 'Millones de dólares',
    source: 'BCCR' as const,
    fetchedAt: NOW,
  });
  await createMonexStore(t.database.db).writeSessions([
    day('2025-01-24', true, 508.4),
    day('2025-01-25', false),
    day('2025-01-26', false),
    day('2025-01-27', true, 507.9),
    day('2025-01-28', true, 507.3),
    day('2025-01-29', true, 506.75),
  ]);
  await t.changes.ratesChanged();
}

export interface Call {
  tool: string;
  args: Record<string, unknown>;
  /** The REST path and query string asking the same. */
  rest: string;
  /** The result's first text item. */
  summary: string;
}

export const CALLS: Call[] = [
  { tool: 'get_latest_rate', args: {}, rest: '/exchange-rate/latest', summary: 'Latest official rate, 2025-01-30: buy ₡506.55, sell ₡512.85' },
  {
    tool: 'get_rate',
    args: { date: '2025-01-15' },
    rest: '/exchange-rate?date=2025-01-15',
    summary: 'Official rate for 2025-01-15: buy ₡510.30, sell ₡516.60',
  },
  {
    tool: 'get_rate',
    args: { date: '2025-01-15', currency: 'eur' },
    rest: '/exchange-rate?date=2025-01-15&currency=eur',
    summary: 'EUR rate (derived) for 2025-01-15: buy ₡525.61, sell ₡532.10',
  },
  {
    tool: 'get_rate',
    args: { date: '2025-01-15', currency: 'JPY' },
    rest: '/exchange-rate?date=2025-01-15&currency=JPY',
    summary: 'JPY rate (derived) for 2025-01-15: buy ₡3.26237, sell ₡3.30265',
  },
  {
    tool: 'get_rate',
    args: { date: '2025-01-18', currency: 'EUR', fill: 'previous' },
    rest: '/exchange-rate?date=2025-01-18&currency=EUR&fill=previous',
    summary: 'EUR rate (derived) for 2025-01-18: buy ₡520.00, sell ₡526.42 (carried from 2025-01-17)',
  },
  {
    tool: 'get_rate',
    args: { date: '2025-01-15', purpose: 'consumer-pay-dollars' },
    rest: '/exchange-rate?date=2025-01-15&purpose=consumer-pay-dollars',
    summary: 'Official rate for 2025-01-15: buy ₡510.30, sell ₡516.60; for consumer-pay-dollars, the buy rate applies: ₡510.30',
  },
  {
    tool: 'get_latest_rate',
    args: { purpose: 'invoice' },
    rest: '/exchange-rate/latest?purpose=invoice',
    summary: 'Latest official rate, 2025-01-30: buy ₡506.55, sell ₡512.85; for invoice, the sell rate applies: ₡512.85',
  },
  {
    tool: 'convert',
    args: { amount: 100, date: '2025-01-15', purpose: 'customs' },
    rest: '/convert?amount=100&date=2025-01-15&purpose=customs',
    summary: '100.00 USD = ₡51,660.00 at the official sell rate of 2025-01-15 (₡516.60 per USD), for customs',
  },
  {
    tool: 'convert',
    args: { amount: 100, from: 'EUR', to: 'CRC', date: '2025-01-15' },
    rest: '/convert?amount=100&from=EUR&to=CRC&date=2025-01-15',
    summary: '100.00 EUR = ₡53,210.00 at the derived sell rate of 2025-01-15 (₡532.10 per EUR)',
  },
  {
    tool: 'convert',
    args: { amount: 100, from: 'USD', to: 'CRC', rate: 'buy', date: '2025-01-15' },
    rest: '/convert?amount=100&from=USD&to=CRC&rate=buy&date=2025-01-15',
    summary: '100.00 USD = ₡51,030.00 at the official buy rate of 2025-01-15 (₡510.30 per USD)',
  },
  {
    tool: 'convert',
    args: { amount: '51285', from: 'crc' },
    rest: '/convert?amount=51285&from=crc',
    summary: '₡51,285.00 = 100.00 USD at the official sell rate of 2025-01-30 (₡512.85 per USD)',
  },
  {
    tool: 'get_history',
    args: { days: 7 },
    rest: '/exchange-rate/history?days=7',
    summary: '7 official rates from 2025-01-24 to 2025-01-30: sell ₡514.35 → ₡512.85',
  },
  {
    tool: 'get_analytics',
    args: { days: 30 },
    rest: '/exchange-rate/analytics?days=30',
    summary: 'Sell rate from 2025-01-01 to 2025-01-30 (30 records): average ₡516.48, min ₡512.85, max ₡520.10, change −1.4%, trend down',
  },
  {
    tool: 'get_analytics',
    args: { from: '2025-01-01', to: '2025-01-10' },
    rest: '/exchange-rate/analytics?from=2025-01-01&to=2025-01-10',
    summary: 'Sell rate from 2025-01-01 to 2025-01-10 (10 records): average ₡518.98, min ₡517.85, max ₡520.10, change −0.4%, trend down',
  },
  {
    tool: 'get_month_close',
    args: { month: '2025-01' },
    rest: '/exchange-rate/close?month=2025-01',
    summary: "2025-01: 30 of 31 days with a rate; no rate on the month's last day; average sell ₡516.48",
  },
  {
    tool: 'get_month_close',
    args: { month: '2025-01', purpose: 'income-tax' },
    rest: '/exchange-rate/close?month=2025-01&purpose=income-tax',
    summary: "2025-01: 30 of 31 days with a rate; no rate on the month's last day; average sell ₡516.48; for income-tax, the sell rate of 2025-12-31: no rate",
  },
  {
    tool: 'get_month_close',
    args: { month: '2025-01', purpose: 'consumer-pay-dollars' },
    rest: '/exchange-rate/close?month=2025-01&purpose=consumer-pay-dollars',
    summary:
      "2025-01: 30 of 31 days with a rate; no rate on the month's last day; average sell ₡516.48; for consumer-pay-dollars, the buy rate of 2025-01-31: no rate",
  },
  {
    tool: 'get_best_institution',
    args: { operation: 'sell', type: 'public_bank' },
    rest: '/banking/best?operation=sell&type=public_bank',
    summary: 'Best place to buy dollars on 2025-01-30: Banco de Costa Rica, which sells at ₡514.00',
  },
  {
    tool: 'get_best_institution',
    args: { operation: 'buy' },
    rest: '/banking/best?operation=buy',
    summary: 'Best place to sell dollars on 2025-01-30: Banco BAC San José, which buys at ₡507.00',
  },
  {
    tool: 'get_insights',
    args: {},
    rest: '/insights',
    summary: 'Del 1 al 30 de enero de 2025, el colón se apreció: venta ₡520,10 → ₡512,85 (−1,4 %)',
  },
  {
    tool: 'get_insights',
    args: { days: 30, locale: 'en' },
    rest: '/insights?days=30&locale=en',
    summary: 'January 1 to 30, 2025: the colón appreciated, sell ₡520.10 → ₡512.85 (−1.4%)',
  },
  {
    tool: 'get_monex',
    args: { date: '2025-01-29' },
    rest: '/monex?date=2025-01-29',
    summary: 'MONEX session of 2025-01-29: weighted average ₡506.75, min ₡505.50, max ₡508.75, 14.50 traded (Millones de dólares)',
  },
  { tool: 'get_monex', args: { date: '2025-01-26' }, rest: '/monex?date=2025-01-26', summary: 'No MONEX session on 2025-01-26' },
  {
    tool: 'get_calendar',
    args: { from: '2025-01-24', to: '2025-01-31' },
    rest: '/calendar?from=2025-01-24&to=2025-01-31',
    summary: '2025-01-24 to 2025-01-31: 4 MONEX sessions, 2 days without one, 2 not known yet; the official rate is stored for 7 of 8 days',
  },
];

/** Bad or unanswerable arguments, and the REST query that fails the same way. */
export const REFUSALS: Array<{ tool: string; args: Record<string, unknown>; rest: string; error: string }> = [
  {
    tool: 'get_history',
    args: { days: 0 },
    rest: '/exchange-rate/history?days=0',
    error: 'BAD_REQUEST: Parameter "days" must be an integer from 1 to 365 (got "0")',
  },
  {
    tool: 'get_history',
    args: { days: 1.5 },
    rest: '/exchange-rate/history?days=1.5',
    error: 'BAD_REQUEST: Parameter "days" must be an integer from 1 to 365 (got "1.5")',
  },
  {
    tool: 'get_rate',
    args: {},
    rest: '/exchange-rate',
    error: 'BAD_REQUEST: Parameter "date" is required: a real calendar date as YYYY-MM-DD',
  },
  {
    tool: 'convert',
    args: { amount: -5 },
    rest: '/convert?amount=-5',
    error: 'BAD_REQUEST: Parameter "amount" must be a number greater than 0 and at most 1e+12 (got "-5")',
  },
  {
    tool: 'get_analytics',
    args: { days: 30, from: '2025-01-01', to: '2025-01-10' },
    rest: '/exchange-rate/analytics?days=30&from=2025-01-01&to=2025-01-10',
    error: 'BAD_REQUEST: Give either "days" or "from" and "to", not both',
  },
  {
    tool: 'get_best_institution',
    args: { operation: ['buy', 'sell'] },
    rest: '/banking/best?operation=buy&operation=sell',
    error: 'BAD_REQUEST: Parameter "operation" must be given only once',
  },
  {
    tool: 'get_rate',
    args: { date: '2024-12-31' },
    rest: '/exchange-rate?date=2024-12-31',
    error: 'NOT_FOUND: No exchange rate for 2024-12-31: the series starts on 2025-01-01',
  },
  {
    tool: 'convert',
    args: { amount: 100, rate: 'buy', purpose: 'invoice' },
    rest: '/convert?amount=100&rate=buy&purpose=invoice',
    error: 'BAD_REQUEST: Give either "rate" or "purpose", not both: the purpose names the side (invoice: sell)',
  },
  {
    tool: 'get_rate',
    args: { date: '2025-01-15', purpose: 'factura' },
    rest: '/exchange-rate?date=2025-01-15&purpose=factura',
    error: 'BAD_REQUEST: Parameter "purpose" must be one of invoice, income-tax, consumer-pay-colones, consumer-pay-dollars, customs (got "factura")',
  },
  {
    tool: 'get_month_close',
    args: { month: '2025-02' },
    rest: '/exchange-rate/close?month=2025-02',
    error: 'BAD_REQUEST: Parameter "month" must not be after the current month, 2025-01 (got "2025-02")',
  },
];

/** Every tool, in the order tools/list gives them, with the parameters each takes and those it requires. */
export const TOOL_PARAMS: Record<string, { params: string[]; required: string[] }> = {
  get_latest_rate: { params: ['currency', 'fill', 'purpose'], required: [] },
  get_rate: { params: ['date', 'currency', 'fill', 'purpose'], required: ['date'] },
  convert: { params: ['amount', 'from', 'to', 'rate', 'date', 'fill', 'purpose'], required: ['amount'] },
  get_history: { params: ['days', 'currency'], required: [] },
  get_analytics: { params: ['days', 'from', 'to', 'currency'], required: [] },
  get_month_close: { params: ['month', 'currency', 'purpose'], required: ['month'] },
  get_best_institution: { params: ['operation', 'type'], required: ['operation'] },
  get_monex: { params: ['date'], required: ['date'] },
  get_calendar: { params: ['from', 'to', 'year'], required: [] },
  get_insights: { params: ['days', 'locale'], required: [] },
};
