import type { Knex } from 'knex';

/**
 * The central bank's wholesale market (MONEX, SDDE cuadro 219): one row per day the central bank
 * published, session or not. A day without a session is published as 0 in every indicator and is
 * stored with `session = false` and null figures, never a 0 that would pass for a price. The
 * amount traded (`volume`) is kept as published, in the unit the indicator's metadata states
 * (`volume_unit`), so an answer can say what its number counts.
 *
 * As for the dollar (008) and the cross rates (011): `monex_observations` holds each distinct
 * reading of a day, and `monex_revisions` the figures a day had before they were replaced,
 * written by a trigger whatever code path updates a row.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('monex_sessions', (t) => {
    t.date('date').primary();
    t.boolean('session').notNullable();
    t.decimal('average', 12, 4);
    t.decimal('min', 12, 4);
    t.decimal('max', 12, 4);
    t.decimal('volume', 20, 4);
    t.text('volume_unit');
    t.text('source').notNullable();
    t.timestamp('fetched_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  // A session has all four figures, a day without one has none: nothing in between is stored.
  await db.raw(`ALTER TABLE monex_sessions ADD CONSTRAINT monex_sessions_figures CHECK (
    (session AND average IS NOT NULL AND min IS NOT NULL AND max IS NOT NULL AND volume IS NOT NULL)
    OR (NOT session AND average IS NULL AND min IS NULL AND max IS NULL AND volume IS NULL))`);

  await db.schema.createTable('monex_observations', (t) => {
    t.date('date').notNullable();
    t.text('route').notNullable();
    t.text('source').notNullable();
    t.text('upstream').notNullable();
    // The four numbers as read, `average/min/max/volume` (0s included): one key per distinct reading.
    t.text('reading').notNullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_confirmed_at', { useTz: true }).notNullable();
    t.integer('count').notNullable().defaultTo(1);
    t.primary(['date', 'route', 'reading']);
  });

  await db.schema.createTable('monex_revisions', (t) => {
    t.bigIncrements('id');
    t.date('date').notNullable();
    t.boolean('session').notNullable();
    t.decimal('average', 12, 4);
    t.decimal('min', 12, 4);
    t.decimal('max', 12, 4);
    t.decimal('volume', 20, 4);
    t.text('source').notNullable();
    t.timestamp('observed_at', { useTz: true }).notNullable();
    t.boolean('new_session').notNullable();
    t.decimal('new_average', 12, 4);
    t.decimal('new_min', 12, 4);
    t.decimal('new_max', 12, 4);
    t.decimal('new_volume', 20, 4);
    t.text('new_source').notNullable();
    t.timestamp('replaced_at', { useTz: true }).notNullable();
    t.index(['date', 'replaced_at', 'id']);
  });

  await db.raw(`
    CREATE FUNCTION monex_keep_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO monex_revisions (date, session, average, min, max, volume, source, observed_at,
        new_session, new_average, new_min, new_max, new_volume, new_source, replaced_at)
      SELECT o.date, o.session, o.average, o.min, o.max, o.volume, o.source, o.fetched_at,
             n.session, n.average, n.min, n.max, n.volume, n.source,
             CASE WHEN n.fetched_at IS DISTINCT FROM o.fetched_at THEN n.fetched_at ELSE now() END
      FROM old_rows o JOIN new_rows n ON n.date = o.date
      WHERE (o.session, o.average, o.min, o.max, o.volume, o.source) IS DISTINCT FROM (n.session, n.average, n.min, n.max, n.volume, n.source)
      ORDER BY o.date;
      RETURN NULL;
    END $$
  `);
  await db.raw(
    `CREATE TRIGGER monex_sessions_revisions AFTER UPDATE ON monex_sessions REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
     FOR EACH STATEMENT EXECUTE FUNCTION monex_keep_revisions()`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER monex_sessions_revisions ON monex_sessions');
  await db.raw('DROP FUNCTION monex_keep_revisions()');
  await db.schema.dropTable('monex_revisions');
  await db.schema.dropTable('monex_observations');
  await db.schema.dropTable('monex_sessions');
}
