/**
 * `/insights` end to end: the window, its facts and verdict, then the text, from the database
 * when it is already written for today, else from the language model, else statistical.
 *
 * Decisions:
 * - The verdict and the metrics are computed from the data on every request; only the words are
 *   ever taken from the model or the cache, so no text can change a figure or the verdict.
 * - Texts are kept per (days, locale, latest date) in the database, so a model is asked at most
 *   once a day for each window and language, across restarts and instances (only two instances
 *   racing on a key nobody has written yet can both ask; the last write wins). The statistical
 *   text is kept the same way, so its generatedAt (and the ETag) stay put for the day. A digest of
 *   the metrics is kept with the text: a correction of a stored rate makes it be written again.
 *   The window snapshot is left out of the digest: it changes through the day, and following it
 *   would ask the model again after every sync.
 * - When the model fails, the statistical text answers and is kept only for FALLBACK_RETRY_MS:
 *   long enough that a broken model is not asked (and waited for) on every request, short
 *   enough that a passing failure does not cost the model's text for the whole day.
 * - A text is served only if it was written by the generator configured now (the model, or the
 *   statistical text when there is none), or if it is a fallback still in its retry time: adding,
 *   removing or changing the model takes effect at once.
 * - Identical requests in flight in one process share one generation (single-flight).
 */
import { createHash } from 'node:crypto';
import { addDays } from '../../shared/dates';
import type { Analytics, InsightLocale, Insights } from '../../shared/types';
import { buildFacts, type BankingSnapshot, type Facts } from '../domain/insights/facts';
import { statisticalInsight, type InsightText } from '../domain/insights/text';
import type { Logger } from '../logger';
import { createLlmClient, type LlmSettings } from '../sources/llm';
import { createBankingStore } from '../store/banking';
import { createMonexStore } from '../store/monex';
import type { Database } from '../store/database';
import { createInsightsStore, type InsightKey, type StoredInsight } from '../store/insights';
import type { RatesStore } from '../store/rates';

export const STATISTICAL = 'statistical';
export const FALLBACK_RETRY_MS = 10 * 60_000;

export interface InsightsServiceDeps {
  db: Database;
  /** The official series to read (the app passes the one it keeps in memory). */
  rates: Pick<RatesStore, 'latest' | 'points'>;
  llm: LlmSettings | null;
  logger: Logger;
  clock: () => Date;
}

export interface InsightsService {
  /** The insight of the `days` calendar days ending at the latest date, or null when there is no data. */
  get(days: number, locale: InsightLocale, today: string): Promise<Insights | null>;
}

export function metricsHash(metrics: Analytics): string {
  return createHash('sha256').update(JSON.stringify(metrics)).digest('base64url');
}

/**
 * What the kept text depends on: the metrics, and the window's MONEX facts when it has any (a
 * session stored later in the day, or corrected, writes the text again). Without MONEX the digest
 * is the metrics' alone, as texts kept before MONEX was read have it.
 */
export function factsHash(facts: Facts): string {
  const metrics = metricsHash(facts.metrics);
  return facts.monex ? `${metrics}.${createHash('sha256').update(JSON.stringify(facts.monex)).digest('base64url')}` : metrics;
}

export function createInsightsService(deps: InsightsServiceDeps): InsightsService {
  const { db, rates, logger, clock } = deps;
  const banking = createBankingStore(db);
  const monex = createMonexStore(db);
  const store = createInsightsStore(db);
  const model = deps.llm ? createLlmClient(deps.llm) : null;
  const generator = model?.model ?? STATISTICAL;
  const inFlight = new Map<string, Promise<StoredInsight>>();

  /** The snapshot of the window's last day with one, if that day falls inside the window. */
  async function snapshotWithin(from: string, to: string): Promise<BankingSnapshot | null> {
    const date = await banking.latestDate(to);
    if (date === null || date < from) return null;
    const quotes = await banking.snapshot(date);
    return quotes.length > 0 ? { date, quotes } : null;
  }

  function usable(stored: StoredInsight | null, hash: string): stored is StoredInsight {
    if (!stored || stored.metricsHash !== hash) return false;
    if (stored.retryAfter !== null) return stored.retryAfter.getTime() > clock().getTime();
    return stored.generatedBy === generator;
  }

  async function write(facts: Facts, locale: InsightLocale, hash: string): Promise<StoredInsight> {
    const generatedAt = clock();
    if (model) {
      try {
        const text = await model.write(facts, locale);
        return stored(text, model.model, generatedAt, hash, null);
      } catch (error) {
        logger.warn(
          { err: error, model: model.model, days: facts.days, locale, to: facts.metrics.to },
          'insights: the language model failed; answering with the statistical text',
        );
        return stored(statisticalInsight(facts, locale), STATISTICAL, generatedAt, hash, new Date(generatedAt.getTime() + FALLBACK_RETRY_MS));
      }
    }
    return stored(statisticalInsight(facts, locale), STATISTICAL, generatedAt, hash, null);
  }

  async function textFor(key: InsightKey, facts: Facts, hash: string): Promise<StoredInsight> {
    const found = await store.find(key);
    if (usable(found, hash)) return found;
    const fresh = await write(facts, key.locale, hash);
    try {
      await store.save(key, fresh);
    } catch (error) {
      // The answer is good without the cache; the next request simply writes it again.
      logger.warn({ err: error, ...key }, 'insights: could not keep the text');
    }
    return fresh;
  }

  return {
    async get(days, locale, today) {
      const latest = await rates.latest(today);
      if (!latest) return null;
      const to = latest.date;
      const from = addDays(to, -(days - 1));
      const points = await rates.points(from, to);
      if (points.length === 0) return null;
      const facts = buildFacts({ days, points, banking: await snapshotWithin(from, to), monex: await monex.range(from, to) });
      const hash = factsHash(facts);
      const key: InsightKey = { days, locale, latestDate: to };
      const flightKey = `${days}|${locale}|${to}|${hash}`;
      let flight = inFlight.get(flightKey);
      if (!flight) {
        flight = textFor(key, facts, hash).finally(() => inFlight.delete(flightKey));
        inFlight.set(flightKey, flight);
      }
      const text = await flight;
      return {
        locale,
        from: facts.metrics.from,
        to: facts.metrics.to,
        verdict: facts.verdict,
        summary: text.summary,
        causes: text.causes,
        metrics: facts.metrics,
        generatedBy: text.generatedBy,
        generatedAt: text.generatedAt.toISOString(),
      };
    },
  };
}

function stored(text: InsightText, generatedBy: string, generatedAt: Date, metricsHash: string, retryAfter: Date | null): StoredInsight {
  return { metricsHash, summary: text.summary, causes: text.causes, generatedBy, generatedAt, retryAfter };
}
