import type { Knex } from 'knex';

/**
 * Insight texts kept per window, language and latest date, so a language model is asked at most
 * once a day for each of them (and once across every instance sharing the database).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('insights_cache', (t) => {
    t.integer('days').notNullable();
    t.text('locale').notNullable();
    t.date('latest_date').notNullable();
    /** A digest of the window's metrics: a corrected rate on the same latest date makes the text stale. */
    t.text('metrics_hash').notNullable();
    t.text('summary').notNullable();
    t.jsonb('causes').notNullable();
    /** The model's name, or 'statistical'. */
    t.text('generated_by').notNullable();
    t.timestamp('generated_at', { useTz: true }).notNullable();
    /** Null for a final text; set for a statistical fallback written because the model failed, so it is retried later. */
    t.timestamp('retry_after', { useTz: true });
    t.primary(['days', 'locale', 'latest_date']);
  });
  // Old days are pruned by date.
  await db.schema.alterTable('insights_cache', (t) => t.index(['latest_date']));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('insights_cache');
}
