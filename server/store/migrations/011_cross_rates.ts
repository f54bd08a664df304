import type { Knex } from 'knex';

/**
 * The central bank's cross rates against the dollar, one series per currency, as published (in
 * the direction the catalog's `quote` names: dollars per euro, yen per dollar). Colones per unit
 * are not stored: they are derived on reading from these and the dollar's rate of the same day,
 * so a correction of either input reaches the derived day at once.
 *
 * As for the dollar (008): `cross_observations` holds each distinct reading of a day, and
 * `cross_revisions` the values a day had before they were replaced, written by a trigger.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('cross_rates', (t) => {
    t.text('currency').notNullable();
    t.date('date').notNullable();
    // Up to 8 decimals as the central bank prints them; a dong per dollar needs 5 integer digits.
    t.decimal('value', 20, 8).notNullable();
    t.text('source').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['currency', 'date']);
  });

  await db.schema.createTable('cross_observations', (t) => {
    t.text('currency').notNullable();
    t.date('date').notNullable();
    t.text('route').notNullable();
    t.text('source').notNullable();
    t.text('upstream').notNullable();
    t.decimal('value', 20, 8).notNullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_confirmed_at', { useTz: true }).notNullable();
    t.integer('count').notNullable().defaultTo(1);
    t.primary(['currency', 'date', 'route', 'value']);
  });

  await db.schema.createTable('cross_revisions', (t) => {
    t.bigIncrements('id');
    t.text('currency').notNullable();
    t.date('date').notNullable();
    t.decimal('value', 20, 8).notNullable();
    t.text('source').notNullable();
    t.timestamp('observed_at', { useTz: true }).notNullable();
    t.decimal('new_value', 20, 8).notNullable();
    t.text('new_source').notNullable();
    t.timestamp('replaced_at', { useTz: true }).notNullable();
    t.index(['currency', 'date', 'replaced_at', 'id']);
  });

  await db.raw(`
    CREATE FUNCTION cross_rates_keep_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO cross_revisions (currency, date, value, source, observed_at, new_value, new_source, replaced_at)
      SELECT o.currency, o.date, o.value, o.source, o.fetched_at, n.value, n.source,
             CASE WHEN n.fetched_at IS DISTINCT FROM o.fetched_at THEN n.fetched_at ELSE now() END
      FROM old_rows o JOIN new_rows n ON n.currency = o.currency AND n.date = o.date
      WHERE (o.value, o.source) IS DISTINCT FROM (n.value, n.source)
      ORDER BY o.currency, o.date;
      RETURN NULL;
    END $$
  `);
  await db.raw(
    `CREATE TRIGGER cross_rates_revisions AFTER UPDATE ON cross_rates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
     FOR EACH STATEMENT EXECUTE FUNCTION cross_rates_keep_revisions()`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER cross_rates_revisions ON cross_rates');
  await db.raw('DROP FUNCTION cross_rates_keep_revisions()');
  await db.schema.dropTable('cross_revisions');
  await db.schema.dropTable('cross_observations');
  await db.schema.dropTable('cross_rates');
}
