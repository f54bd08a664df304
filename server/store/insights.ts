/** Insight texts, kept per (days, locale, latest date): one generation a day per window and language. */
import type { Knex } from 'knex';
import { addDays } from '../../shared/dates';
import type { InsightLocale } from '../../shared/types';

export interface InsightKey {
  days: number;
  locale: InsightLocale;
  latestDate: string;
}

export interface StoredInsight {
  metricsHash: string;
  summary: string;
  causes: string[];
  generatedBy: string;
  generatedAt: Date;
  /** When a fallback text should give way to a new attempt; null for a final text. */
  retryAfter: Date | null;
}

interface InsightRow {
  days: number;
  locale: InsightLocale;
  latest_date: string;
  metrics_hash: string;
  summary: string;
  causes: string[] | string;
  generated_by: string;
  generated_at: Date;
  retry_after: Date | null;
}

/** Texts of latest dates older than this are of no use any more and are deleted on the next write. */
const KEEP_DAYS = 7;

export function createInsightsStore(db: Knex) {
  const table = () => db<InsightRow>('insights_cache');
  const where = (key: InsightKey) => ({ days: key.days, locale: key.locale, latest_date: key.latestDate });

  return {
    async find(key: InsightKey): Promise<StoredInsight | null> {
      const row = await table().select('metrics_hash', 'summary', 'causes', 'generated_by', 'generated_at', 'retry_after').where(where(key)).first();
      if (!row) return null;
      return {
        metricsHash: row.metrics_hash,
        summary: row.summary,
        // jsonb comes back parsed from node-postgres and PGlite alike; a string is tolerated all the same.
        causes: typeof row.causes === 'string' ? (JSON.parse(row.causes) as string[]) : row.causes,
        generatedBy: row.generated_by,
        generatedAt: new Date(row.generated_at),
        retryAfter: row.retry_after === null ? null : new Date(row.retry_after),
      };
    },

    /** Replaces the text of the key (another instance may have written one meanwhile: the latest wins). */
    async save(key: InsightKey, insight: StoredInsight): Promise<void> {
      await table()
        .insert({
          ...where(key),
          metrics_hash: insight.metricsHash,
          summary: insight.summary,
          // As text: knex would send a JS array as a PostgreSQL array literal, not as JSON.
          causes: JSON.stringify(insight.causes),
          generated_by: insight.generatedBy,
          generated_at: insight.generatedAt,
          retry_after: insight.retryAfter,
        })
        .onConflict(['days', 'locale', 'latest_date'])
        .merge();
      await table().where('latest_date', '<', addDays(key.latestDate, -KEEP_DAYS)).delete();
    },
  };
}

export type InsightsStore = ReturnType<typeof createInsightsStore>;
