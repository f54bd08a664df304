import type { Knex } from 'knex';

/**
 * Requests served, beside the units reserved. `api_usage.count` includes the leases instances hold
 * and have not spent (access/quota-ledger.ts), so it cannot say how many requests a key was
 * served: each instance writes here how many it served, in a row of its own (a whole number it
 * only raises, so a write repeated or landing late changes nothing), and `/usage` adds them up.
 * Months from before start with their count, the closest figure there is.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('api_usage_served', (t) => {
    t.integer('key_id').notNullable().references('api_keys.id').onDelete('CASCADE');
    t.date('month').notNullable();
    /** The process that served them (a random id per start). */
    t.text('instance').notNullable();
    t.integer('served').notNullable();
    t.primary(['key_id', 'month', 'instance']);
  });
  await db.raw(`INSERT INTO api_usage_served (key_id, month, instance, served) SELECT key_id, month, 'before-served-counts', count FROM api_usage`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('api_usage_served');
}
