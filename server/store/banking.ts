/** Window quotes per institution and day. */
import type { Knex } from 'knex';
import type { InstitutionType } from '../../shared/institutions';
import { plainText } from '../domain/plain-text';
import type { Quote } from '../domain/institutions';

export interface InstitutionInput {
  id: string;
  name: string;
  type: InstitutionType;
  known: boolean;
}

export interface QuoteInput {
  institutionId: string;
  buy: number;
  sell: number;
  updatedAt: Date | null;
}

export function createBankingStore(db: Knex) {
  return {
    /** The latest day with a snapshot, not after `today`. */
    async latestDate(today: string): Promise<string | null> {
      const row = await db('banking_rates').where('date', '<=', today).max<{ max: string | null }>('date as max').first();
      return row?.max ?? null;
    },

    async snapshot(date: string): Promise<Quote[]> {
      const rows = await db('banking_rates as r')
        .join('institutions as i', 'i.id', 'r.institution_id')
        .where('r.date', date)
        .select<Array<{ id: string; name: string; type: InstitutionType; buy: number; sell: number; updated_at: Date | null }>>(
          'i.id',
          'i.name',
          'i.type',
          'r.buy',
          'r.sell',
          'r.updated_at',
        );
      return rows.map((r) => ({ id: r.id, name: r.name, type: r.type, buy: r.buy, sell: r.sell, updatedAt: r.updated_at }));
    },

    /**
     * Institutions are added when first seen, their names (upstream text) without control
     * characters; a day's quotes replace that day's earlier ones.
     */
    async saveDay(
      day: { date: string; source: string; fetchedAt: Date; institutions: readonly InstitutionInput[]; quotes: readonly QuoteInput[] },
      trx: Knex = db,
    ): Promise<{ inserted: number; updated: number }> {
      if (day.institutions.length > 0) {
        await trx('institutions')
          .insert(day.institutions.map((i) => ({ id: i.id, name: plainText(i.name), type: i.type, known: i.known })))
          .onConflict('id')
          .merge(['name', 'type', 'known']);
      }
      if (day.quotes.length === 0) return { inserted: 0, updated: 0 };
      const result = (await trx.raw(
        `? ON CONFLICT (date, institution_id) DO UPDATE SET buy = excluded.buy, sell = excluded.sell,
           updated_at = excluded.updated_at, source = excluded.source, fetched_at = excluded.fetched_at
         WHERE (banking_rates.buy, banking_rates.sell, banking_rates.updated_at)
           IS DISTINCT FROM (excluded.buy, excluded.sell, excluded.updated_at)
         RETURNING (xmax = 0) AS inserted`,
        [
          trx('banking_rates').insert(
            day.quotes.map((q) => ({
              date: day.date,
              institution_id: q.institutionId,
              buy: q.buy,
              sell: q.sell,
              updated_at: q.updatedAt,
              source: day.source,
              fetched_at: day.fetchedAt,
            })),
          ),
        ],
      )) as { rows: Array<{ inserted: boolean }> };
      const inserted = result.rows.filter((r) => r.inserted).length;
      return { inserted, updated: result.rows.length - inserted };
    },
  };
}

export type BankingStore = ReturnType<typeof createBankingStore>;
