/** Where a day's rate came from and how it changed: its provenance (JSON or a printable page) and the revisions of a span. */
import { z } from 'zod';
import { LIMITS } from '../../../shared/limits';
import { ProvenanceSchema, RevisionSchema } from '../../../shared/schemas';
import { type Lang, LANGS } from '../../../shared/languages';
import { DOLLAR, derivedCurrency, type DerivedCurrency } from '../../../shared/currency-catalog';
import type { ExchangeRate, Provenance, Revision } from '../../../shared/types';
import { derivedDayRevisions, derivedSpanRevisions } from '../../domain/derived-provenance';
import { recordDigest, summarizeObservations } from '../../domain/provenance';
import { createCrossRatesStore } from '../../store/cross-rates';
import type { CurrencySeries } from '../../store/currency-series';
import type { Database } from '../../store/database';
import { createProvenanceStore } from '../../store/provenance';
import { createProvisionalRatesStore } from '../../store/provisional-rates';
import { notFound } from '../../errors';
import { currencyCode, date, oneOf } from '../params';
import { defineRoute, type Route } from '../route';
import { checkFromTo } from './windows';

const TAG = 'Exchange rate';

export interface ProvenanceDeps {
  db: Database;
  /** Each currency's records as the read routes give them (a derived day's record is derived there). */
  currencies: CurrencySeries;
  /** Tells the routes that the observation log changed (a sync read values, maybe the same ones again). */
  onObservationsChanged: (listener: () => void) => void;
  /** The printable page of `format=html`, in the site's look (site/provenance.ts). */
  page: ProvenancePage;
}

export interface ProvenancePage {
  /** The headers the page needs (its content security policy). */
  headers(): Readonly<Record<string, string>>;
  render(provenance: Provenance, lang: Lang): string;
}

const earliest = (a: string, b: string) => (b < a ? b : a);
const latest = (a: string, b: string) => (b > a ? b : a);

/** The dollar's day as an input of a derived (or provisional) one: its values and its own log. */
function dollarInput(record: Pick<ExchangeRate, 'buy' | 'sell' | 'source'>, dollar: ReturnType<typeof summarizeObservations>) {
  const { upstream, firstSeenAt, lastConfirmedAt, observations } = dollar;
  return { buy: record.buy, sell: record.sell, source: record.source, upstream, firstSeenAt, lastConfirmedAt, observations };
}

export function provenanceRoutes({ db, currencies, onObservationsChanged, page }: ProvenanceDeps): Route[] {
  const store = createProvenanceStore(db);
  const cross = createCrossRatesStore(db);
  const provisionalRates = createProvisionalRatesStore(db);

  /**
   * Today's provisional record (Hacienda's euro): the address read, when, and the dollar's sell it
   * was multiplied by (when stored; Hacienda's own colones otherwise, and then no inputs).
   */
  async function provisionalProvenance(currency: DerivedCurrency, today: string): Promise<Provenance | null> {
    const [record, row] = await Promise.all([currencies.provisional(currency.code, today), provisionalRates.byDate(currency.code, today)]);
    if (!record || !row) return null;
    const fetchedAt = row.fetchedAt.toISOString();
    const dollarDay = await store.ofDay(today);
    const dollar = dollarDay && summarizeObservations(dollarDay.record, dollarDay.observations);
    const hacienda = `Hacienda ${row.upstream} (dolares)`;
    const sell = dollar ? `${dollar.upstream.sell} × ${hacienda}` : `Hacienda ${row.upstream} (colones)`;
    return {
      record,
      upstream: { buy: `none: Hacienda publishes no ${currency.code} buy rate`, sell },
      firstSeenAt: fetchedAt,
      lastConfirmedAt: fetchedAt,
      observations: 1,
      revisions: [],
      digest: recordDigest(record),
      ...(dollarDay && dollar
        ? {
            inputs: {
              dollar: dollarInput(dollarDay.record, dollar),
              cross: {
                indicator: currency.indicator,
                quote: currency.quote,
                published: row.published,
                source: row.source,
                upstream: hacienda,
                firstSeenAt: fetchedAt,
                lastConfirmedAt: fetchedAt,
                observations: 1,
              },
            },
          }
        : {}),
    };
  }

  /** A derived day: its record, both inputs with their own logs, and the revisions of either. */
  async function derivedProvenance(currency: DerivedCurrency, date: string): Promise<Provenance> {
    const record = await currencies.of(currency.code).byDate(date);
    const dollarDay = record && (await store.ofDay(date));
    if (!record?.derived || !dollarDay) throw notFound(`No ${currency.code} rate for ${date}`);
    const { published } = record.derived;
    const crossLog = await cross.history(currency.code, date);
    const dollar = summarizeObservations(dollarDay.record, dollarDay.observations);
    // The cross rate as it stands: first read when its value was, confirmed whenever read again.
    const current = crossLog.observations.filter((o) => o.value === published);
    const crossFirst = current.filter((o) => o.source === record.source).reduce((first, o) => earliest(first, o.firstSeenAt), record.fetchedAt);
    const crossLast = current.reduce((last, o) => latest(last, o.lastConfirmedAt), crossFirst);
    // As the latest reading of the current value names it (a demo's says "Simulated"); the indicator otherwise.
    const reading = current.reduce<(typeof current)[number] | null>((best, o) => (best === null || o.lastConfirmedAt > best.lastConfirmedAt ? o : best), null);
    const upstream = reading?.upstream ?? `BCCR SDDE indicator ${currency.indicator}`;
    const op = currency.quote === 'usdPerUnit' ? '×' : '÷';
    // The derived values were there once both inputs were; confirmed as long as both were.
    const firstSeenAt = latest(dollar.firstSeenAt, crossFirst);
    return {
      record,
      upstream: { buy: `${dollar.upstream.buy} ${op} ${upstream}`, sell: `${dollar.upstream.sell} ${op} ${upstream}` },
      firstSeenAt,
      lastConfirmedAt: latest(firstSeenAt, earliest(dollar.lastConfirmedAt, crossLast)),
      observations: dollar.observations + crossLog.observations.reduce((n, o) => n + o.count, 0),
      revisions: derivedDayRevisions(currency, { dollar: dollarDay.record, published, source: record.source }, crossLog.revisions, dollarDay.revisions),
      digest: recordDigest(record),
      inputs: {
        dollar: dollarInput(dollarDay.record, dollar),
        cross: {
          indicator: currency.indicator,
          quote: currency.quote,
          published,
          source: record.source,
          upstream,
          firstSeenAt: crossFirst,
          lastConfirmedAt: crossLast,
          observations: crossLog.observations.reduce((n, o) => n + o.count, 0),
        },
      },
    };
  }

  /** A currency's revisions in a span: those of its cross rates and those of the dollar, derived. */
  async function derivedRevisions(currency: DerivedCurrency, from: string, to: string): Promise<Revision[]> {
    const [crossRevisions, dollarRevisions, dollarRecords, crossValues] = await Promise.all([
      cross.revisions(currency.code, from, to),
      store.revisions(from, to),
      currencies.of(DOLLAR.code).range(from, to),
      cross.range(currency.code, from, to),
    ]);
    const dollarOn = new Map(dollarRecords.map((r) => [r.date, r]));
    const crossOn = new Map(crossValues.map((r) => [r.date, r]));
    return derivedSpanRevisions(
      currency,
      crossRevisions,
      dollarRevisions,
      (d) => dollarOn.get(d),
      (d) => crossOn.get(d),
    );
  }

  return [
    defineRoute({
      path: '/exchange-rate/provenance',
      tag: TAG,
      access: 'key',
      summary: "Where a day's rate came from",
      description:
        'The record with the upstream of each side (in words) (for EUR today before the central bank publishes: Hacienda’s provisional record and the address read), when its values were first seen and last confirmed, how many observations the day has, the values it had before (oldest first) and a digest anyone can recompute. For a currency other than the dollar, `inputs` gives both inputs (the dollar’s rate and the cross rate) with their own readings, and a revision of either is a revision of the derived day. format=html gives the same facts as a printable page.',
      query: {
        date: date('The day, YYYY-MM-DD.'),
        locale: oneOf(LANGS, 'Language of the page with format=html.', 'es'),
        currency: currencyCode(),
      },
      response: ProvenanceSchema,
      example: { date: '2025-01-15' },
      notFound: 'The day has no rate.',
      formats: {
        html: {
          type: 'text/html; charset=utf-8',
          description: 'the same facts as a printable page (in the language of `locale`), for an audit file',
          headers: () => page.headers(),
          render: (provenance, { locale }) => page.render(provenance, locale),
        },
      },
      // A sync that reads the same values again moves lastConfirmedAt without changing any rate.
      staleWhen: (drop) => onObservationsChanged(drop),
      handle: async ({ date, currency }, { today }): Promise<Provenance> => {
        const derived = derivedCurrency(currency);
        if (derived && date === today && !(await currencies.of(derived.code).byDate(date))) {
          const provisional = await provisionalProvenance(derived, today);
          if (provisional) return provisional;
        }
        if (derived) return derivedProvenance(derived, date);
        const day = await store.ofDay(date);
        if (!day) throw notFound(`No exchange rate for ${date}`);
        return {
          record: day.record,
          ...summarizeObservations(day.record, day.observations),
          revisions: day.revisions,
          digest: recordDigest(day.record),
        };
      },
    }),

    defineRoute({
      path: '/exchange-rate/revisions',
      tag: TAG,
      access: 'key',
      summary: 'The revisions of the days of a span',
      description: `Every revision of a day between from and to (at most ${LIMITS.range.maxSpanDays} days apart), ascending by day, then by time: the values before, the values after and when; [] when none.`,
      query: { from: date('First day, inclusive.'), to: date('Last day, inclusive.'), currency: currencyCode() },
      check: (query) => checkFromTo(query, LIMITS.range.maxSpanDays),
      response: z.array(RevisionSchema),
      example: { from: '2025-01-01', to: '2025-01-31' },
      // Revisions change only with the rates, and every change of rates drops every kept answer.
      handle: ({ from, to, currency }) => {
        const derived = derivedCurrency(currency);
        return derived ? derivedRevisions(derived, from, to) : store.revisions(from, to);
      },
    }),
  ];
}
