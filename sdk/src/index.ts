/**
 * @crc-rates/sdk: a typed client of the crc-rates API, the official USD/CRC exchange rate of the
 * Banco Central de Costa Rica. Zero dependencies: it uses the runtime's `fetch` and `AbortController`.
 */
export {
  ExchangeRateClient,
  DEFAULT_BASE_URL,
  type ClientOptions,
  type FetchLike,
  type FetchInit,
  type FetchResponseLike,
  type RateLimitInfo,
} from './client';
export type { RequestOptions, FetchSignal, AbortSignalLike } from './abort';
// The parameters of each method, generated from the server's routes.
export type {
  StatsPeriod,
  HistoryParams,
  RangeParams,
  AnalyticsParams,
  StatsParams,
  ChartParams,
  ConvertParams,
  BankingRatesParams,
  BestRateParams,
  InsightsParams,
  MonexHistoryParams,
  MonexRangeParams,
  CalendarParams,
  LatestParams,
  ByDateParams,
  CloseParams,
  Purpose,
} from './params';
export { ExchangeRateError, type ExchangeRateErrorCode, type ExchangeRateErrorInit } from './errors';
export { costaRicaDay, type DateInput } from './dates';
// Every record type the API returns, as the server types it.
export type * from './types';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyOptions,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookThreshold,
  type NewWebhook,
  type Webhook,
  type CreatedWebhook,
  type WebhookDelivery,
} from './webhooks';
