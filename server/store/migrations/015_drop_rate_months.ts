import type { Knex } from 'knex';
import * as rateMonths from './007_rate_months';

/**
 * Period statistics are computed from the series every instance keeps in memory (series-reader.ts),
 * exactly and in a fraction of what reading the monthly summaries cost: nothing reads them any
 * more, and their triggers made every write of rates recompute the months it touched. Going back
 * down builds them again from the rows stored by then.
 */
export const up = (db: Knex): Promise<void> => rateMonths.down(db);
export const down = (db: Knex): Promise<void> => rateMonths.up(db);
