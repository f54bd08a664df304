import type { Knex } from 'knex';

/** One row per sync run, for health ("last successful sync") and for operators. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('sync_runs', (t) => {
    t.increments('id').primary();
    t.text('kind').notNullable(); // official | banking | currencies
    t.text('source').notNullable();
    t.date('span_from');
    t.date('span_to');
    t.text('status').notNullable(); // running | succeeded | failed
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('finished_at', { useTz: true });
    t.integer('inserted').notNullable().defaultTo(0);
    t.integer('updated').notNullable().defaultTo(0);
    t.integer('rejected').notNullable().defaultTo(0);
    t.integer('missing').notNullable().defaultTo(0);
    t.text('error');
    t.index(['kind', 'status', 'finished_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('sync_runs');
}
