import type { Knex } from 'knex';

/** API keys (only their SHA-256 hash is kept), monthly usage per key, and access requests. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('api_keys', (t) => {
    t.increments('id').primary();
    t.text('name').notNullable();
    t.text('plan').notNullable();
    t.text('key_hash').notNullable().unique();
    /** The first characters of the key, enough for a person to tell keys apart. */
    t.text('key_prefix').notNullable();
    t.integer('monthly_quota').notNullable();
    t.integer('rate_per_minute').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('revoked_at', { useTz: true });
  });
  await db.schema.createTable('api_usage', (t) => {
    t.integer('key_id').notNullable().references('api_keys.id').onDelete('CASCADE');
    /** The first day of the UTC month the count belongs to. */
    t.date('month').notNullable();
    t.integer('count').notNullable();
    t.primary(['key_id', 'month']);
  });
  await db.schema.createTable('access_requests', (t) => {
    t.increments('id').primary();
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('company');
    t.text('plan').notNullable();
    t.text('message');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('access_requests');
  await db.schema.dropTable('api_usage');
  await db.schema.dropTable('api_keys');
}
