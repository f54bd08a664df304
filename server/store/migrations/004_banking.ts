import type { Knex } from 'knex';

/** Window (ventanilla) quotes of each institution, one snapshot per day, never overwritten by later days. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('institutions', (t) => {
    t.text('id').primary();
    t.text('name').notNullable();
    t.text('type').notNullable();
    /** False for an institution the catalog does not list: stored anyway, and logged. */
    t.boolean('known').notNullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('banking_rates', (t) => {
    t.date('date').notNullable();
    t.text('institution_id').notNullable().references('institutions.id');
    t.decimal('buy', 12, 4).notNullable();
    t.decimal('sell', 12, 4).notNullable();
    /** The institution's own last update, when the source gives one. */
    t.timestamp('updated_at', { useTz: true });
    t.text('source').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.primary(['date', 'institution_id']);
  });
  await db.raw('ALTER TABLE banking_rates ADD CONSTRAINT banking_rates_sane CHECK (buy > 0 AND sell >= buy)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('banking_rates');
  await db.schema.dropTable('institutions');
}
