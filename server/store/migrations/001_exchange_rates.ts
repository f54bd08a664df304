import type { Knex } from 'knex';

/** The official series: one row per calendar day, as the central bank publishes it. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('exchange_rates', (t) => {
    t.date('date').primary();
    // NUMERIC, never float: the published values are exact decimals.
    t.decimal('buy', 12, 4).notNullable();
    t.decimal('sell', 12, 4).notNullable();
    t.text('source').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.raw('ALTER TABLE exchange_rates ADD CONSTRAINT exchange_rates_sane CHECK (buy > 0 AND sell >= buy)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('exchange_rates');
}
