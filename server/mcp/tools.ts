/**
 * The MCP tools: which route each one runs, which of the route's parameters it takes, and the
 * line of text that sums up its answer. Everything else (description, input and output schemas,
 * validation, the answer itself) comes from the route (definitions.ts).
 *
 * A summary is in English, except where the tool takes a `locale` and the answer is in Spanish
 * (`get_insights`, whose data says its locale). Dates stay ISO, amounts are written as in the
 * statistical insight text (`₡509.80`).
 */
import type { Analytics, BestRate, CalendarDay, Conversion, ExchangeRate, Insights, MonexSession, MonthClose, RateAnswer, Verdict } from '../../shared/types';
import { formatDateRange, formatMoney, formatNumber, formatPercent } from '../domain/insights/format';

export interface ToolSpec {
  readonly name: string;
  /** The route it runs, as in the route list (under /api/v1). */
  readonly path: string;
  /** The route's parameters it takes, by their REST names; the others keep their defaults. */
  readonly params: readonly string[];
  /** One line about the route's data, for people (and for a model, before the JSON). */
  summarize(data: unknown): string;
}

/** The route's response schema guarantees the data's shape: the one place it is taken on trust. */
function tool<T>(spec: { name: string; path: string; params: readonly string[]; summarize: (data: T) => string }): ToolSpec {
  return { ...spec, summarize: (data) => spec.summarize(data as T) };
}

const money = (value: number) => formatMoney(value, 'en');
/** A rate in colones: below 10 (a yen, a dong) with the 6 significant digits it has, never rounded to ₡0.02. */
const colones = (value: number) => (value >= 10 ? money(value) : `₡${value}`);
/** A provisional record (Hacienda's euro of today) has no buy side. */
const buySell = (r: { buy: number | null; sell: number }) => `${r.buy === null ? 'no buy' : `buy ${colones(r.buy)}`}, sell ${colones(r.sell)}`;
/**
 * What a record is: the official rate, another currency's rate derived from the cross rate, or,
 * before the central bank publishes today's euro, Hacienda's provisional one.
 */
function rateOf(r: { currencyFrom: string; source: string }): string {
  if (r.currencyFrom === 'USD') return 'official rate';
  return r.source === 'Hacienda' ? `${r.currencyFrom} rate (provisional, Hacienda)` : `${r.currencyFrom} rate (derived)`;
}
const carried = (r: { carriedFrom?: string | undefined }) => (r.carriedFrom ? ` (carried from ${r.carriedFrom})` : '');
/** With a purpose, the side its rule names and that side's rate: what the record is asked for. */
function forPurpose(r: RateAnswer): string {
  if (!r.purpose) return '';
  const value = r[r.purpose.side];
  return `; for ${r.purpose.id}, the ${r.purpose.side} rate applies: ${value === null ? 'none' : colones(value)}`;
}
/** At a close, the rate the purpose's rule names on its day (December 31 for income-tax). */
function closeForPurpose(m: MonthClose): string {
  if (!(m.purpose && m.purposeRate)) return '';
  const { date, side, value } = m.purposeRate;
  return `; for ${m.purpose.id}, the ${side} rate of ${date}: ${value === null ? 'no rate' : colones(value)}`;
}
const amount = (value: number, currency: string) => (currency === 'CRC' ? money(value) : `${formatNumber(value, 'en', { decimals: 2 })} ${currency}`);

const VERDICT_TEXT: Record<'es' | 'en', Record<Verdict, string>> = {
  es: { appreciation: 'el colón se apreció', depreciation: 'el colón se depreció', stable: 'el colón se mantuvo estable' },
  en: { appreciation: 'the colón appreciated', depreciation: 'the colón depreciated', stable: 'the colón held steady' },
};

function insightLine(data: Insights): string {
  const { locale, verdict, from, to, metrics } = data;
  const range = formatDateRange(from, to, locale);
  const sell = metrics.sell;
  const move = `${formatMoney(sell.first, locale)} → ${formatMoney(sell.last, locale)} (${formatPercent(sell.changePercent, locale, { signed: true })})`;
  if (locale === 'es') return `${range[0]?.toUpperCase()}${range.slice(1)}, ${VERDICT_TEXT.es[verdict]}: venta ${move}`;
  return `${range}: ${VERDICT_TEXT.en[verdict]}, sell ${move}`;
}

export const TOOLS: readonly ToolSpec[] = [
  tool<RateAnswer>({
    name: 'get_latest_rate',
    path: '/exchange-rate/latest',
    params: ['currency', 'fill', 'purpose'],
    summarize: (r) => `Latest ${rateOf(r)}, ${r.date}: ${buySell(r)}${carried(r)}${forPurpose(r)}`,
  }),
  tool<RateAnswer>({
    name: 'get_rate',
    path: '/exchange-rate',
    params: ['date', 'currency', 'fill', 'purpose'],
    summarize: (r) => `${rateOf(r).replace(/^o/, 'O')} for ${r.date}: ${buySell(r)}${carried(r)}${forPurpose(r)}`,
  }),
  tool<Conversion>({
    name: 'convert',
    path: '/convert',
    params: ['amount', 'from', 'to', 'rate', 'date', 'fill', 'purpose'],
    summarize: (c) =>
      `${amount(c.amount, c.from)} = ${amount(c.result, c.to)} at the ${c.currency === 'USD' ? 'official' : 'derived'} ${c.rate} rate of ${c.date} (${colones(c.rateValue)} per ${c.currency})${carried(c)}${c.purpose ? `, for ${c.purpose.id}` : ''}`,
  }),
  tool<ExchangeRate[]>({
    name: 'get_history',
    path: '/exchange-rate/history',
    params: ['days', 'currency'],
    summarize: (records) => {
      const [first, last] = [records[0], records.at(-1)];
      if (!first || !last) return 'No rate in the window';
      const rates = first.currencyFrom === 'USD' ? 'official rates' : `${first.currencyFrom} rates (derived)`;
      return `${records.length} ${rates} from ${first.date} to ${last.date}: sell ${colones(first.sell)} → ${colones(last.sell)}`;
    },
  }),
  tool<Analytics>({
    name: 'get_analytics',
    path: '/exchange-rate/analytics',
    params: ['days', 'from', 'to', 'currency'],
    summarize: ({ from, to, count, sell }) =>
      `Sell rate from ${from} to ${to} (${count} records): average ${money(sell.average)}, min ${money(sell.min)}, max ${money(sell.max)}, change ${formatPercent(sell.changePercent, 'en', { signed: true })}, trend ${sell.trend}`,
  }),
  tool<MonthClose>({
    name: 'get_month_close',
    path: '/exchange-rate/close',
    params: ['month', 'currency', 'purpose'],
    summarize: (m) =>
      `${m.month}: ${m.daysPresent} of ${m.daysInMonth} days with a rate${m.complete ? ' (complete)' : ''}; ${
        m.closing ? `closing rate ${buySell(m.closing)}` : "no rate on the month's last day"
      }; average sell ${money(m.sell.average)}${closeForPurpose(m)}`,
  }),
  tool<BestRate>({
    name: 'get_best_institution',
    path: '/banking/best',
    params: ['operation', 'type'],
    summarize: ({ operation, date, best }) =>
      operation === 'buy'
        ? `Best place to sell dollars on ${date}: ${best.name}, which buys at ${money(best.buy)}`
        : `Best place to buy dollars on ${date}: ${best.name}, which sells at ${money(best.sell)}`,
  }),
  tool<MonexSession>({
    name: 'get_monex',
    path: '/monex',
    params: ['date'],
    summarize: (m) =>
      m.session
        ? `MONEX session of ${m.date}: weighted average ${money(m.average ?? 0)}, min ${money(m.min ?? 0)}, max ${money(m.max ?? 0)}, ${formatNumber(m.volume ?? 0, 'en', { decimals: 2 })} traded (${m.volumeUnit ?? 'unit not stated'})`
        : `No MONEX session on ${m.date}`,
  }),
  tool<CalendarDay[]>({
    name: 'get_calendar',
    path: '/calendar',
    params: ['from', 'to', 'year'],
    summarize: (days) => {
      const [first, last] = [days[0], days.at(-1)];
      if (!first || !last) return 'No day in the span';
      const count = (session: boolean | null) => days.filter((d) => d.session === session).length;
      return `${first.date} to ${last.date}: ${count(true)} MONEX sessions, ${count(false)} days without one, ${count(null)} not known yet; the official rate is stored for ${days.filter((d) => d.referenceRate).length} of ${days.length} days`;
    },
  }),
  tool<Insights>({
    name: 'get_insights',
    path: '/insights',
    params: ['days', 'locale'],
    summarize: insightLine,
  }),
];
