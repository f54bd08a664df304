import type { Knex } from 'knex';

/**
 * Provisional values of a day a currency's own series does not have yet: Hacienda's euro, read
 * before the central bank publishes its cross rate. Kept apart from `cross_rates` on purpose: a
 * provisional value has no buy side and must never enter a series, its statistics or its charts;
 * it is answered for its own day only, and the central bank's value wins once stored.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('provisional_rates', (t) => {
    t.text('currency').notNullable();
    t.date('date').notNullable();
    // As published: dollars per unit (Hacienda's `dolares`), and colones per unit when given.
    t.decimal('published', 20, 8).notNullable();
    t.decimal('colones', 20, 8).nullable();
    t.text('source').notNullable();
    // The address read, for provenance.
    t.text('upstream').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.primary(['currency', 'date']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('provisional_rates');
}
