import type { Knex } from 'knex';

const COLUMNS = [
  'month',
  'first_date',
  'last_date',
  'count',
  ...['buy', 'sell'].flatMap((side) => ['sum', 'min', 'max', 'first', 'last'].map((value) => `${side}_${value}`)),
];

/**
 * Each month of the official series summed up once (count, sum, minimum, maximum, first and last
 * of both sides), so that period statistics over forty years read some five hundred summaries
 * instead of aggregating sixteen thousand rows: on the embedded database that aggregation alone
 * took longer than a request may. Triggers on exchange_rates keep the summaries exact whoever
 * writes the rows (sync, backfill, an operator by hand): each statement recomputes the months it
 * touched. rate_month_summaries() is the one definition of a summary, for the triggers and for
 * the days of the months a statistics range cuts into.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('rate_months', (t) => {
    t.date('month').primary();
    t.date('first_date').notNullable();
    t.date('last_date').notNullable();
    t.integer('count').notNullable();
    for (const side of ['buy', 'sell']) {
      // Sums stay exact NUMERIC: averages are worked out from them, rounded as avg() would be.
      t.specificType(`${side}_sum`, 'numeric').notNullable();
      for (const value of ['min', 'max', 'first', 'last']) t.decimal(`${side}_${value}`, 12, 4).notNullable();
    }
  });

  const side = (column: string) =>
    `sum(${column}), min(${column}), max(${column}), (array_agg(${column} ORDER BY date))[1], (array_agg(${column} ORDER BY date DESC))[1]`;
  await db.raw(`
    CREATE FUNCTION rate_month_summaries(p_from date, p_to date) RETURNS SETOF rate_months LANGUAGE sql STABLE AS $$
      SELECT date_trunc('month', date)::date, min(date), max(date), count(*)::integer, ${side('buy')}, ${side('sell')}
      FROM exchange_rates WHERE date BETWEEN p_from AND p_to GROUP BY 1
    $$
  `);
  await db.raw(`
    CREATE FUNCTION refresh_rate_months(p_months date[]) RETURNS void LANGUAGE sql AS $$
      WITH fresh AS (
        SELECT * FROM rate_month_summaries((SELECT min(m) FROM unnest(p_months) m), (SELECT max(m) FROM unnest(p_months) m) + 31)
        WHERE month IN (SELECT unnest(p_months))
      ), emptied AS (
        DELETE FROM rate_months WHERE month = ANY (p_months) AND month NOT IN (SELECT month FROM fresh)
      )
      INSERT INTO rate_months SELECT * FROM fresh
      ON CONFLICT (month) DO UPDATE SET ${COLUMNS.filter((c) => c !== 'month')
        .map((c) => `${c} = excluded.${c}`)
        .join(', ')}
    $$
  `);
  await db.raw(`
    CREATE FUNCTION exchange_rates_refresh_months() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- Transition tables exist only for the events that have them.
      IF TG_OP = 'INSERT' THEN
        PERFORM refresh_rate_months(ARRAY(SELECT DISTINCT date_trunc('month', date)::date FROM new_rows));
      ELSIF TG_OP = 'UPDATE' THEN
        PERFORM refresh_rate_months(ARRAY(SELECT DISTINCT date_trunc('month', date)::date FROM (SELECT date FROM old_rows UNION SELECT date FROM new_rows) changed));
      ELSIF TG_OP = 'DELETE' THEN
        PERFORM refresh_rate_months(ARRAY(SELECT DISTINCT date_trunc('month', date)::date FROM old_rows));
      ELSE
        TRUNCATE rate_months;
      END IF;
      RETURN NULL;
    END $$
  `);
  const triggers = [
    ['insert', 'INSERT', 'REFERENCING NEW TABLE AS new_rows'],
    ['update', 'UPDATE', 'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows'],
    ['delete', 'DELETE', 'REFERENCING OLD TABLE AS old_rows'],
    ['truncate', 'TRUNCATE', ''],
  ];
  for (const [name, event, referencing] of triggers) {
    await db.raw(
      `CREATE TRIGGER exchange_rates_months_${name} AFTER ${event} ON exchange_rates ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION exchange_rates_refresh_months()`,
    );
  }
  await db.raw(`SELECT refresh_rate_months(ARRAY(SELECT DISTINCT date_trunc('month', date)::date FROM exchange_rates))`);
}

export async function down(db: Knex): Promise<void> {
  for (const name of ['insert', 'update', 'delete', 'truncate']) await db.raw(`DROP TRIGGER exchange_rates_months_${name} ON exchange_rates`);
  await db.raw('DROP FUNCTION exchange_rates_refresh_months()');
  await db.raw('DROP FUNCTION refresh_rate_months(date[])');
  await db.raw('DROP FUNCTION rate_month_summaries(date, date)');
  await db.schema.dropTable('rate_months');
}
