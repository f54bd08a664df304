import type { Knex } from 'knex';

/**
 * Where every stored rate came from, for audits. `rate_observations` holds each distinct reading
 * of a day (the route that read it, its source, the indicator of each side in words, the
 * values): a sync that reads the same values again only counts it and moves `last_confirmed_at`,
 * so the log grows with what upstreams said, not with how often they were asked.
 * `rate_revisions` keeps the values a day had before they were replaced, with what replaced them;
 * a trigger writes it, so a correction is kept whoever makes it (a sync, the fallback giving way
 * to the central bank, an operator by hand). Neither table references exchange_rates: what an
 * upstream said stays said, and a foreign key would refuse `TRUNCATE exchange_rates`.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('rate_observations', (t) => {
    t.date('date').notNullable();
    // The adapter that read it (bccr-sdde, bccr-site, hacienda); the words say what it reads.
    t.text('route').notNullable();
    t.text('source').notNullable();
    t.text('upstream_buy').notNullable();
    t.text('upstream_sell').notNullable();
    t.decimal('buy', 12, 4).notNullable();
    t.decimal('sell', 12, 4).notNullable();
    t.timestamp('first_seen_at', { useTz: true }).notNullable();
    t.timestamp('last_confirmed_at', { useTz: true }).notNullable();
    t.integer('count').notNullable().defaultTo(1);
    // Date first: provenance reads one day's few observations. The route rather than the words
    // in the key: a narrow key kept the backfill's extra cost (16,000 readings) small.
    t.primary(['date', 'route', 'buy', 'sell']);
  });

  await db.schema.createTable('rate_revisions', (t) => {
    t.bigIncrements('id');
    t.date('date').notNullable();
    t.decimal('buy', 12, 4).notNullable();
    t.decimal('sell', 12, 4).notNullable();
    t.text('source').notNullable();
    // When the replaced values were observed: the row's fetched_at then.
    t.timestamp('observed_at', { useTz: true }).notNullable();
    t.decimal('new_buy', 12, 4).notNullable();
    t.decimal('new_sell', 12, 4).notNullable();
    t.text('new_source').notNullable();
    t.timestamp('replaced_at', { useTz: true }).notNullable();
    t.index(['date', 'replaced_at', 'id']);
  });

  // A sync stamps the new row with the time it observed the new values: that is when the old ones
  // were replaced. A change by hand leaves fetched_at alone and is dated when it is made.
  await db.raw(`
    CREATE FUNCTION exchange_rates_keep_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO rate_revisions (date, buy, sell, source, observed_at, new_buy, new_sell, new_source, replaced_at)
      SELECT o.date, o.buy, o.sell, o.source, o.fetched_at, n.buy, n.sell, n.source,
             CASE WHEN n.fetched_at IS DISTINCT FROM o.fetched_at THEN n.fetched_at ELSE now() END
      FROM old_rows o JOIN new_rows n ON n.date = o.date
      WHERE (o.buy, o.sell, o.source) IS DISTINCT FROM (n.buy, n.sell, n.source)
      ORDER BY o.date;
      RETURN NULL;
    END $$
  `);
  // Statement level, like the monthly summaries: one insert per upsert, however many rows it wrote.
  await db.raw(
    `CREATE TRIGGER exchange_rates_revisions AFTER UPDATE ON exchange_rates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
     FOR EACH STATEMENT EXECUTE FUNCTION exchange_rates_keep_revisions()`,
  );

  // The rows stored before the log existed: one observation each, at the time they were fetched.
  // Which route of the central bank read them was not recorded (both read indicators 317 and
  // 318); Hacienda has one.
  await db.raw(`
    INSERT INTO rate_observations (date, route, source, upstream_buy, upstream_sell, buy, sell, first_seen_at, last_confirmed_at, count)
    SELECT date, CASE source WHEN 'Hacienda' THEN 'hacienda' ELSE 'bccr' END, source,
           CASE source WHEN 'Hacienda' THEN 'Hacienda /indicadores/tc/dolar (compra)' ELSE 'BCCR indicator 317' END,
           CASE source WHEN 'Hacienda' THEN 'Hacienda /indicadores/tc/dolar (venta)' ELSE 'BCCR indicator 318' END,
           buy, sell, fetched_at, fetched_at, 1
    FROM exchange_rates
  `);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER exchange_rates_revisions ON exchange_rates');
  await db.raw('DROP FUNCTION exchange_rates_keep_revisions()');
  await db.schema.dropTable('rate_revisions');
  await db.schema.dropTable('rate_observations');
}
