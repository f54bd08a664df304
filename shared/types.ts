/** The TypeScript types of the API's records, derived from the schemas so the two never drift. */
import type { z } from 'zod';
import type {
  AnalyticsSchema,
  ChartPointSchema,
  ChartSchema,
  ConversionSchema,
  CurrencySchema,
  ExchangeRateSchema,
  ProvisionalRateSchema,
  RateAnswerSchema,
  HealthSchema,
  PeriodSideSchema,
  PeriodStatsSchema,
  MonthCloseSchema,
  SideAnalyticsSchema,
  TrendLineSchema,
  UsageSchema,
  InstitutionSchema,
  BankingRatesSchema,
  RankedInstitutionSchema,
  BestRateSchema,
  InsightsSchema,
  ProvenanceRevisionSchema,
  ProvenanceSchema,
  RateValuesSchema,
  RevisionSchema,
  UpstreamSchema,
  PurposeCitationSchema,
  PurposeSchema,
  MonexSessionSchema,
  MonexProvenanceSchema,
  MonexRevisionSchema,
  CalendarDaySchema,
} from './schemas';

export type ExchangeRate = z.infer<typeof ExchangeRateSchema>;
/** Today's rate filled by Hacienda before the central bank publishes: `buy` is null. */
export type ProvisionalRate = z.infer<typeof ProvisionalRateSchema>;
/** What `/exchange-rate/latest` and `/exchange-rate` answer: a record, or a provisional one. */
export type RateAnswer = z.infer<typeof RateAnswerSchema>;
export type SideAnalytics = z.infer<typeof SideAnalyticsSchema>;
export type Analytics = z.infer<typeof AnalyticsSchema>;
export type PeriodSide = z.infer<typeof PeriodSideSchema>;
export type PeriodStats = z.infer<typeof PeriodStatsSchema>;
export type MonthClose = z.infer<typeof MonthCloseSchema>;
export type ChartPoint = z.infer<typeof ChartPointSchema>;
export type TrendLine = z.infer<typeof TrendLineSchema>;
export type Chart = z.infer<typeof ChartSchema>;
export type Conversion = z.infer<typeof ConversionSchema>;
export type CurrencyInfo = z.infer<typeof CurrencySchema>;
export type Health = z.infer<typeof HealthSchema>;
export type Trend = SideAnalytics['trend'];
export type Usage = z.infer<typeof UsageSchema>;
export type Institution = z.infer<typeof InstitutionSchema>;
export type BankingRates = z.infer<typeof BankingRatesSchema>;
export type RankedInstitution = z.infer<typeof RankedInstitutionSchema>;
export type BestRate = z.infer<typeof BestRateSchema>;
export type Insights = z.infer<typeof InsightsSchema>;
export type Verdict = Insights['verdict'];
export type InsightLocale = Insights['locale'];
export type Upstream = z.infer<typeof UpstreamSchema>;
export type ProvenanceRevision = z.infer<typeof ProvenanceRevisionSchema>;
export type Provenance = z.infer<typeof ProvenanceSchema>;
export type RateValues = z.infer<typeof RateValuesSchema>;
export type Revision = z.infer<typeof RevisionSchema>;
export type PurposeInfo = z.infer<typeof PurposeSchema>;
export type PurposeCitation = z.infer<typeof PurposeCitationSchema>;
export type MonexSession = z.infer<typeof MonexSessionSchema>;
export type MonexRevision = z.infer<typeof MonexRevisionSchema>;
export type MonexProvenance = z.infer<typeof MonexProvenanceSchema>;
export type CalendarDay = z.infer<typeof CalendarDaySchema>;
