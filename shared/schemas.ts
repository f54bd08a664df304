/**
 * The shapes of everything the API returns (docs/api.md). The server validates its documentation
 * against these, the OpenAPI document is generated from them, and `types.ts` derives the
 * TypeScript types that the server, the add-on and the SDK share.
 */
import { z } from 'zod';
import { RATE_SIDES, RATE_SOURCES } from './currencies';
import { CURRENCY_CODES, QUOTES } from './currency-catalog';
import { ERROR_CODES } from './errors';
import { INSTITUTION_TYPES } from './institutions';
import { PURPOSE_CLOSE_DAYS, PURPOSE_IDS } from './purposes';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ format: 'date', example: '2025-01-15' });
const timestamp = z.string().meta({ format: 'date-time', example: '2025-01-14T18:05:12.000Z' });

export const DerivedSchema = z
  .object({
    indicator: z.string().meta({ example: '333', description: 'The SDDE indicator of the cross rate against the dollar.' }),
    quote: z
      .enum(QUOTES)
      .meta({ description: 'The direction the central bank publishes it in: dollars per unit (EUR, GBP, AUD) or units per dollar (the others).' }),
    published: z.number().meta({ example: 1.1653, description: 'The cross rate as the central bank published it, in the direction `quote` names.' }),
    usdDate: isoDate.meta({ description: 'The date of the colones-per-dollar rate used: always the cross rate’s own date.' }),
  })
  .meta({
    id: 'Derived',
    description: 'How a rate other than the dollar’s was derived: colones per dollar × dollars per unit, both of the same day. Never labelled official.',
  });

const purposeText = (description: string) => z.object({ es: z.string(), en: z.string() }).meta({ description });
const purposeFields = {
  id: z.enum(PURPOSE_IDS).meta({ description: 'The purpose, as the `purpose` parameter takes it.' }),
  side: z.enum(RATE_SIDES).meta({ description: 'The side of the central bank’s reference rate the rule names.' }),
  rule: purposeText('The rule, in Spanish and English.'),
  basis: z.string().meta({ example: 'Ley General de Aduanas (Ley 7557), art. 257', description: 'The legal text the rule comes from, as it is cited.' }),
  note: purposeText('That the rule is cited for information and is not legal or tax advice.'),
};

export const PurposeCitationSchema = z.object(purposeFields).meta({
  id: 'PurposeCitation',
  description: 'With `purpose`: the rule the answer applies, the side it names and where the rule comes from (cited for information, not legal advice).',
});

export const PurposeSchema = z
  .object({
    id: purposeFields.id,
    aliases: z.array(z.string()).meta({ example: ['aduana'], description: 'Spanish names of the purpose (the Sheets add-on takes them; the API takes `id`).' }),
    side: purposeFields.side,
    day: purposeText('Whose date the rate is taken on: the day to ask for.'),
    close: z.enum(PURPOSE_CLOSE_DAYS).meta({
      description: 'The day /exchange-rate/close applies the rule to: the month’s last day, or December 31 of the month’s year (the fiscal close).',
    }),
    rule: purposeFields.rule,
    basis: purposeFields.basis,
    note: purposeFields.note,
  })
  .meta({ id: 'Purpose' });

export const ExchangeRateSchema = z
  .object({
    date: isoDate,
    currencyFrom: z
      .enum(CURRENCY_CODES as [string, ...string[]])
      .meta({ description: 'The currency quoted: USD (the official series) or another code from /currencies.' }),
    currencyTo: z.literal('CRC'),
    buy: z.number().meta({
      description:
        'CRC per 1 unit, buy side: for USD the central bank buy reference rate (indicator 317); for another currency, derived from it (2 decimals from 10 colones up, else 6 significant digits).',
    }),
    sell: z
      .number()
      .meta({ description: 'CRC per 1 unit, sell side: for USD the central bank sell reference rate (indicator 318); for another currency, derived from it.' }),
    source: z
      .enum(RATE_SOURCES)
      .meta({ description: 'Provider of the row: BCCR (central bank), Hacienda (fallback), or DEMO (simulated data of a demo instance, never real).' }),
    fetchedAt: timestamp,
    derived: DerivedSchema.optional().meta({ description: 'Present for a currency other than the dollar: the inputs it was derived from.' }),
    carriedFrom: isoDate
      .optional()
      .meta({ description: 'With fill=previous, the date whose rate is given for a day that has none (absent when nothing is carried).' }),
    // Last, after the fields the record always had: a CSV's columns keep their places.
    buyInverse: z.number().optional().meta({
      example: 0.001974450609,
      description: 'With inverse=true: units of the currency per 1 CRC at the buy rate, 1 / buy to 10 significant digits (half away from zero).',
    }),
    sellInverse: z
      .number()
      .optional()
      .meta({ example: 0.00195000195, description: 'With inverse=true: units of the currency per 1 CRC at the sell rate, 1 / sell to 10 significant digits.' }),
    purpose: PurposeCitationSchema.optional().meta({ description: 'With purpose=: the rule applied; `purpose.side` is the side it names.' }),
  })
  .meta({ id: 'ExchangeRate' });

/**
 * Today's rate of a currency the central bank has not published yet, filled by Hacienda (the
 * euro): a sell side only. It is answered by `/exchange-rate/latest` and `/exchange-rate` for
 * today, never stored in a series, never in history, ranges, statistics, charts or closes.
 */
export const ProvisionalRateSchema = ExchangeRateSchema.extend({
  buy: z.null().meta({ description: 'No buy side: Hacienda publishes the euro’s sell only (its dollars per euro × the dollar’s sell).' }),
  sell: z.number().meta({
    description:
      'CRC per 1 unit, sell side: Hacienda’s dollars per unit × today’s dollar sell (indicator 318), rounded as derived rates are; Hacienda’s own colones when today’s dollar is not stored.',
  }),
  source: z.literal('Hacienda').meta({ description: 'Hacienda: provisional, until the central bank publishes the day’s cross rate, which then wins.' }),
  derived: DerivedSchema.meta({ description: 'The inputs: `published` is Hacienda’s dollars per unit; `usdDate` the day of the dollar’s sell used.' }),
  buyInverse: z.null().optional().meta({ description: 'With inverse=true: null, there is no buy side.' }),
}).meta({ id: 'ProvisionalRate' });

/** What the single-day routes answer: a record, or today's provisional one (`buy: null`). */
export const RateAnswerSchema = z.union([ExchangeRateSchema, ProvisionalRateSchema]).meta({
  id: 'RateAnswer',
  description:
    'An exchange rate record; for today only, when the central bank has not published a currency’s cross rate yet, Hacienda’s provisional one (buy null).',
});

const rateSide = (side: 'buy' | 'sell') => z.number().meta({ description: `CRC per 1 USD, ${side} side.` });
const rateSource = z.enum(RATE_SOURCES);

export const UpstreamSchema = z
  .object({
    buy: z.string().meta({ example: 'BCCR SDDE indicator 317' }),
    sell: z.string().meta({ example: 'BCCR SDDE indicator 318' }),
  })
  .meta({ id: 'Upstream', description: "Where each side of the record was read, in words, for the record's source." });

export const ProvenanceRevisionSchema = z
  .object({
    buy: rateSide('buy'),
    sell: rateSide('sell'),
    source: rateSource,
    observedAt: timestamp.meta({ description: 'When the replaced values were observed.' }),
    replacedAt: timestamp.meta({ description: 'When later values replaced them.' }),
  })
  .meta({ id: 'ProvenanceRevision', description: 'Values the day had before, replaced by a later observation.' });

export const ProvenanceSchema = z
  .object({
    record: RateAnswerSchema,
    upstream: UpstreamSchema,
    firstSeenAt: timestamp.meta({ description: 'The first time the current values were observed from the record’s source.' }),
    lastConfirmedAt: timestamp.meta({ description: 'The last time any source gave the same values again.' }),
    observations: z.int().meta({ description: 'How many observations the day has in all (a reading of unchanged values counts again).' }),
    revisions: z.array(ProvenanceRevisionSchema).meta({ description: 'The values this day had before, oldest first; [] when never revised.' }),
    digest: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/)
      .meta({
        description:
          '`sha256:` + the lowercase hex SHA-256 of the UTF-8 text `date|currencyFrom|currencyTo|buy|sell|source`, numbers in plain decimal notation with at least 2 decimals, a null buy (a provisional record) as an empty field (e.g. `2026-03-24|USD|CRC|462.69|468.29|BCCR`).',
        example: 'sha256:2e42939890286c0b83764265b5389ee7dd6c5248abef84d43174375ca6797d3d',
      }),
    inputs: z
      .object({
        dollar: z.object({
          buy: z.number(),
          sell: z.number(),
          source: rateSource,
          upstream: UpstreamSchema,
          firstSeenAt: timestamp,
          lastConfirmedAt: timestamp,
          observations: z.number().int(),
        }),
        cross: z.object({
          indicator: z.string(),
          quote: z.enum(QUOTES),
          published: z.number(),
          source: rateSource,
          upstream: z.string().meta({ example: 'BCCR SDDE indicator 333' }),
          firstSeenAt: timestamp,
          lastConfirmedAt: timestamp,
          observations: z.number().int(),
        }),
      })
      .optional()
      .meta({
        description:
          'For a currency other than the dollar: both inputs of the derived record, each with where it was read and its own observations (the dollar’s colones-per-dollar rate and the cross rate of the same day).',
      }),
  })
  .meta({ id: 'Provenance' });

export const RateValuesSchema = z.object({ buy: rateSide('buy'), sell: rateSide('sell'), source: rateSource }).meta({ id: 'RateValues' });

export const RevisionSchema = z
  .object({
    date: isoDate,
    before: RateValuesSchema,
    after: RateValuesSchema,
    revisedAt: timestamp.meta({ description: 'When the values after replaced the values before.' }),
  })
  .meta({ id: 'Revision' });

export const TREND_VALUES = ['up', 'down', 'stable'] as const;

export const SideAnalyticsSchema = z
  .object({
    average: z.number(),
    min: z.number(),
    minDate: isoDate,
    max: z.number(),
    maxDate: isoDate,
    first: z.number(),
    last: z.number(),
    change: z.number().meta({ description: 'last − first.' }),
    changePercent: z.number().meta({ description: 'change / first × 100, rounded to 4 decimals.' }),
    volatility: z.number().meta({
      description: 'Sample standard deviation (n − 1) of the percentage changes between consecutive records, in percent; 0 with fewer than 3 records.',
    }),
    trend: z.enum(TREND_VALUES).meta({
      description: 'up/down by the sign of slopePerDay when |slopePerDay × days spanned| ≥ 0.1 % of average, otherwise stable.',
    }),
    slopePerDay: z.number().meta({
      description: 'Ordinary least squares slope of the value against calendar days since the first record (CRC per day).',
    }),
  })
  .meta({ id: 'SideAnalytics' });

export const AnalyticsSchema = z
  .object({
    from: isoDate,
    to: isoDate,
    count: z.int(),
    buy: SideAnalyticsSchema,
    sell: SideAnalyticsSchema,
  })
  .meta({ id: 'Analytics' });

export const PeriodSideSchema = z
  .object({
    average: z.number(),
    min: z.number(),
    max: z.number(),
    first: z.number(),
    last: z.number(),
    change: z.number(),
  })
  .meta({ id: 'PeriodSide' });

export const PeriodStatsSchema = z
  .object({
    period: z.string().meta({ example: '2025-01', description: '`YYYY-MM` for monthly periods, `YYYY` for yearly ones.' }),
    from: isoDate,
    to: isoDate,
    count: z.int(),
    buy: PeriodSideSchema,
    sell: PeriodSideSchema,
  })
  .meta({ id: 'PeriodStats' });

export const MonthCloseSchema = z
  .object({
    month: z
      .string()
      .regex(/^\d{4}-\d{2}$/)
      .meta({ example: '2025-01', description: 'The month, `YYYY-MM`.' }),
    from: isoDate.meta({ description: 'The first date present in the month.' }),
    to: isoDate.meta({ description: 'The last date present in the month.' }),
    daysInMonth: z.int().meta({ description: 'Calendar days of the month (28 to 31).' }),
    daysPresent: z.int().meta({ description: 'Records of the month.' }),
    missing: z.array(isoDate).meta({ description: 'Calendar days of the month, up to the latest date, with no record; ascending.' }),
    complete: z.boolean().meta({ description: 'Every calendar day of the month has a record (a month still running never is).' }),
    closing: ExchangeRateSchema.nullable().meta({
      description: "The record of the month's last calendar day; null when that day has no record (never another day).",
    }),
    buy: PeriodSideSchema,
    sell: PeriodSideSchema,
    purpose: PurposeCitationSchema.optional().meta({ description: 'With purpose=: the rule applied at the close.' }),
    purposeRate: z
      .object({
        date: isoDate.meta({
          description:
            'The day the rule applies to at a close: the month’s last day, or December 31 of the month’s year for a fiscal-year-end rule (income-tax).',
        }),
        side: z.enum(RATE_SIDES).meta({ description: 'The side the rule names.' }),
        value: z
          .number()
          .nullable()
          .meta({ description: 'That side’s rate on that day, in CRC per unit; null when the day has no rate (a gap, or not published yet).' }),
      })
      .optional()
      .meta({ description: 'With purpose=: the rate the rule names for the close.' }),
  })
  .meta({ id: 'MonthClose' });

export const ChartPointSchema = z.object({ date: isoDate, buy: z.number(), sell: z.number() }).meta({ id: 'ChartPoint' });

export const TrendLineSchema = z.object({ slopePerDay: z.number(), start: z.number(), end: z.number() }).meta({ id: 'TrendLine' });

export const ChartSchema = z
  .object({
    from: isoDate,
    to: isoDate,
    points: z.int().meta({ description: 'Number of entries in `series`.' }),
    series: z.array(ChartPointSchema).meta({
      description:
        'At most the requested number of points; the first and last records are always kept. Longer windows are downsampled with Largest-Triangle-Three-Buckets on `sell`.',
    }),
    trend: z.object({ buy: TrendLineSchema, sell: TrendLineSchema }).meta({
      description: 'Least-squares line over every record of the window; start/end are its values at from/to.',
    }),
  })
  .meta({ id: 'Chart' });

export const ConversionSchema = z
  .object({
    amount: z.number(),
    from: z.enum(['CRC', ...CURRENCY_CODES] as [string, ...string[]]),
    to: z.enum(['CRC', ...CURRENCY_CODES] as [string, ...string[]]),
    rate: z.enum(RATE_SIDES),
    rateValue: z.number().meta({ description: 'CRC per 1 unit of `currency` on `date`, on the `rate` side (1 when both sides are the same currency).' }),
    date: isoDate,
    result: z.number().meta({ description: 'Rounded to 2 decimals, half away from zero, computed in decimal arithmetic.' }),
    currency: z.enum(CURRENCY_CODES as [string, ...string[]]).meta({ description: 'The side that is not CRC: the currency whose rate applies.' }),
    derived: DerivedSchema.optional().meta({ description: 'For a currency other than the dollar: the inputs its rate was derived from.' }),
    carriedFrom: isoDate.optional().meta({ description: 'With fill=previous, the date whose rate was used for a day that has none.' }),
    purpose: PurposeCitationSchema.optional().meta({ description: 'With purpose=: the rule applied, whose side is `rate`.' }),
  })
  .meta({ id: 'Conversion' });

export const CurrencySchema = z
  .object({
    code: z.string().meta({ example: 'EUR', description: 'ISO 4217 code, as the `currency` parameter takes it.' }),
    name: z.object({ es: z.string(), en: z.string() }).meta({ example: { es: 'Euro', en: 'Euro' } }),
    kind: z
      .enum(['official', 'derived'])
      .meta({ description: 'official: the central bank’s own colones-per-dollar rate (USD); derived: from its cross rate against the dollar.' }),
    indicator: z.string().nullable().meta({
      example: '333',
      description: 'The SDDE indicator of the cross rate; null for USD, whose rates are indicators 317 (buy) and 318 (sell) themselves.',
    }),
    quote: z.enum(QUOTES).nullable().meta({ description: 'The direction the cross rate is published in; null for USD.' }),
    since: isoDate.nullable().meta({ description: 'The first day with a stored rate; null when none is stored.' }),
    latestDate: isoDate
      .nullable()
      .meta({ description: 'The latest day with a rate, not after today; null when none is stored (other currencies need the central bank’s token).' }),
  })
  .meta({ id: 'Currency' });

/** The state of the last run of the official sync; `never` before the first one. */
export const SYNC_STATES = ['running', 'succeeded', 'failed', 'never'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

export const SyncStatusSchema = z
  .object({
    state: z.enum(SYNC_STATES).meta({ description: 'The state of the last run of the official sync; never before the first one.' }),
    error: z.string().nullable().meta({ description: 'Why the last run failed, in one line (no stack trace); null unless state is failed.' }),
    finishedAt: timestamp.nullable().meta({ description: 'When the last run ended; null while it runs or before the first one.' }),
    nextAttemptAt: timestamp
      .nullable()
      .meta({ description: 'When this instance syncs next: a retry after a failure, or the next scheduled run; null when none is planned.' }),
  })
  .meta({ id: 'SyncStatus' });

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    reasons: z.array(z.string()).meta({
      description:
        'Why the status is degraded, one sentence each (never empty when degraded); when ok, only what the instance does not serve (other currencies without BCCR_TOKEN), else [].',
    }),
    database: z.literal('up'),
    latestDate: isoDate.nullable(),
    lastSyncAt: timestamp.nullable().meta({ description: 'When the last successful run of the official sync ended.' }),
    sync: SyncStatusSchema,
    version: z.string(),
    uptimeSeconds: z.number(),
  })
  .meta({ id: 'Health' });

export const ErrorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error: z.enum(ERROR_CODES as [string, ...string[]]),
  })
  .meta({ id: 'Error' });

export const UsageSchema = z
  .object({
    plan: z.enum(['pro', 'custom']),
    monthlyQuota: z.int(),
    used: z.int(),
    remaining: z.int(),
    resetsAt: timestamp.meta({ description: 'When the count starts again: 00:00 UTC on the first day of next month.' }),
    ratePerMinute: z.int(),
  })
  .meta({ id: 'Usage' });

export const InstitutionSchema = z
  .object({
    id: z.string().meta({ example: 'banco-nacional' }),
    name: z.string().meta({ example: 'Banco Nacional de Costa Rica' }),
    type: z.enum(INSTITUTION_TYPES),
    buy: z.number().meta({ description: 'CRC the institution pays for 1 USD.' }),
    sell: z.number().meta({ description: 'CRC the institution charges for 1 USD.' }),
    spread: z.number().meta({ description: 'sell − buy.' }),
    updatedAt: timestamp.nullable().meta({ description: "The institution's own last update, when the source gives it." }),
    stale: z.boolean().meta({ description: 'True when updatedAt is before the snapshot’s date.' }),
  })
  .meta({ id: 'Institution' });

export const BankingRatesSchema = z.object({ date: isoDate, institutions: z.array(InstitutionSchema) }).meta({ id: 'BankingRates' });

export const RankedInstitutionSchema = InstitutionSchema.extend({
  rank: z.int().meta({ description: 'Ties share a rank and the next rank skips (1, 1, 3).' }),
  vsOfficial: z.number().nullable().meta({
    description: "The institution's rate minus the official rate of the same side and date; null when that official rate is missing.",
  }),
}).meta({ id: 'RankedInstitution' });

export const BestRateSchema = z
  .object({
    operation: z.enum(RATE_SIDES),
    date: isoDate,
    best: InstitutionSchema,
    ranking: z.array(RankedInstitutionSchema),
  })
  .meta({ id: 'BestRate' });

/** The languages of `/insights`. */
export const INSIGHT_LOCALES = ['es', 'en'] as const;
/** What the window says about the colón (docs/api.md). */
export const VERDICTS = ['appreciation', 'depreciation', 'stable'] as const;

export const InsightsSchema = z
  .object({
    locale: z.enum(INSIGHT_LOCALES),
    from: isoDate.meta({ description: 'The first date present in the window.' }),
    to: isoDate.meta({ description: 'The last date present in the window: the latest date.' }),
    verdict: z.enum(VERDICTS).meta({
      description:
        "About the colón, from the sell rate's changePercent over the window: appreciation when ≤ −L, depreciation when ≥ L, stable otherwise, where L is 0.25 for windows of up to 30 days and 0.25 × √(d / 30) beyond (d: calendar days from `from` to `to`). Always computed from the metrics, never by a language model.",
    }),
    summary: z.string().meta({ description: 'A short summary of the window in the requested language, quoting its figures.' }),
    causes: z.array(z.string()).meta({
      description: 'Probable causes, phrased as probabilities and tied to the figures; no news or events are asserted.',
    }),
    metrics: AnalyticsSchema,
    generatedBy: z.string().meta({
      description: "The language model that wrote summary and causes, or 'statistical' when they come from the built-in text.",
      example: 'statistical',
    }),
    generatedAt: timestamp.meta({ description: 'When summary and causes were written (answers are kept for the day).' }),
  })
  .meta({ id: 'Insights' });

const monexFigure = (description: string, example: number) => z.number().nullable().meta({ description, example });

export const MonexSessionSchema = z
  .object({
    date: isoDate,
    session: z.boolean().meta({ description: 'Whether MONEX held a session that day (the central bank publishes 0 for a day without one).' }),
    average: monexFigure('Weighted average price of the session, CRC per USD (SDDE indicator 3439); null without a session.', 483.69),
    min: monexFigure('Lowest price traded, CRC per USD (indicator 3436); null without a session.', 482.5),
    max: monexFigure('Highest price traded, CRC per USD (indicator 3437); null without a session.', 485),
    volume: monexFigure('Total amount traded, as published (indicator 3446), in `volumeUnit`; null without a session.', 12.75),
    volumeUnit: z.string().nullable().meta({
      description:
        'The unit of `volume` as the central bank’s metadata of indicator 3446 states it (millions of US dollars, as published); null when the metadata did not state one.',
      example: 'Millones de dólares',
    }),
    source: rateSource,
    fetchedAt: timestamp,
  })
  .meta({
    id: 'MonexSession',
    description: 'One day of MONEX, the central bank’s wholesale foreign exchange market. A day without a session has null figures: never carried forward.',
  });

const monexValue = (description: string) => z.number().nullable().meta({ description });

export const MonexValuesSchema = z
  .object({
    session: z.boolean(),
    average: monexValue('Null without a session.'),
    min: monexValue('Null without a session.'),
    max: monexValue('Null without a session.'),
    volume: monexValue('Null without a session.'),
    source: rateSource,
  })
  .meta({ id: 'MonexValues', description: 'The figures of a MONEX day at one time.' });

export const MonexRevisionSchema = z
  .object({
    date: isoDate,
    before: MonexValuesSchema,
    after: MonexValuesSchema,
    observedAt: timestamp.meta({ description: 'When the figures before were read.' }),
    replacedAt: timestamp.meta({ description: 'When the figures after replaced them.' }),
  })
  .meta({ id: 'MonexRevision', description: 'A MONEX day whose figures a later reading replaced.' });

export const MonexProvenanceSchema = z
  .object({
    session: MonexSessionSchema,
    upstream: z.string().meta({ description: 'Where the day was read, in words.', example: 'BCCR SDDE indicators 3439 3436 3437 3446' }),
    firstSeenAt: timestamp.meta({
      description:
        'The first time the current figures were read from the day’s source (when nothing was published for the day, a weekend, when the day was stored).',
    }),
    lastConfirmedAt: timestamp.meta({ description: 'The last time any source gave the same figures again.' }),
    observations: z
      .int()
      .meta({ description: 'How many readings the day has in all (a reading of unchanged figures counts again); 0 for a day nothing was published for.' }),
    revisions: z.array(MonexRevisionSchema).meta({ description: 'The day’s revisions, oldest first; [] when never revised.' }),
  })
  .meta({ id: 'MonexProvenance', description: 'Where a stored MONEX day came from and how it changed.' });

export const CalendarDaySchema = z
  .object({
    date: isoDate,
    weekday: z.number().int().min(1).max(7).meta({ description: 'ISO weekday: Monday = 1 … Sunday = 7.', example: 3 }),
    session: z
      .boolean()
      .nullable()
      .meta({ description: 'Whether MONEX held a session; null for a day not known yet (the future, or past the last day synced).' }),
    referenceRate: z.boolean().meta({ description: 'Whether the official USD rate of that date is stored.' }),
  })
  .meta({ id: 'CalendarDay', description: 'One calendar day of the market: whether MONEX sat, and whether the official rate is stored.' });
