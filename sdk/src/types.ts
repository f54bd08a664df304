/**
 * The records the API returns, as the server itself types them (`shared/`). This is the SDK's
 * only door to `shared/` for types: the build replaces this module's declarations with
 * self-contained, written-out copies (see build.mjs), so the published package needs nothing
 * from the repository. Only types may live here.
 */
export type {
  ExchangeRate,
  ProvisionalRate,
  RateAnswer,
  SideAnalytics,
  Analytics,
  PeriodSide,
  PeriodStats,
  MonthClose,
  ChartPoint,
  TrendLine,
  Chart,
  Conversion,
  CurrencyInfo,
  Health,
  Trend,
  Usage,
  Institution,
  BankingRates,
  RankedInstitution,
  BestRate,
  Insights,
  Verdict,
  InsightLocale,
  Upstream,
  ProvenanceRevision,
  Provenance,
  RateValues,
  Revision,
  PurposeInfo,
  PurposeCitation,
  MonexSession,
  MonexProvenance,
  MonexRevision,
  CalendarDay,
} from '../../shared/types';
export type { ErrorCode } from '../../shared/errors';
export type { Currency, RateSide, RateSource } from '../../shared/currencies';
export type { InstitutionType } from '../../shared/institutions';
export type { PlanId } from '../../shared/plans';
