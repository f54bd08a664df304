import type { Knex } from 'knex';

/**
 * Webhooks. `webhook_subscriptions` holds what a key subscribed (the secret encrypted, never in
 * clear: the signature needs the secret itself, so it cannot be hashed like a key), whether it is
 * disabled, how many deliveries in a row failed, and which side of its threshold the last stored
 * rate was on. `webhook_deliveries` is the outbox: one row per event and subscription, written in
 * the same transaction as the data that caused it, with the exact body signed on every attempt;
 * workers claim due rows with FOR UPDATE SKIP LOCKED and a lease, so every instance may deliver
 * and each row is sent by one at a time.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhook_subscriptions', (t) => {
    t.text('id').primary();
    t.integer('key_id').notNullable().references('api_keys.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    t.text('currency').notNullable().defaultTo('USD');
    t.jsonb('threshold');
    // 'above' or 'below': where the last stored rate stood against the threshold (null: not yet known).
    t.text('threshold_state');
    // AES-256-GCM: base64 of iv (12 bytes) + tag (16 bytes) + ciphertext.
    t.text('secret_sealed').notNullable();
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.timestamp('disabled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['key_id']);
  });

  await db.schema.createTable('webhook_deliveries', (t) => {
    // Creation order: deliveries of one subscription go out in this order.
    t.bigIncrements('id');
    // The event's id as the receiver sees it (Webhook-Id), the same on every attempt.
    t.text('event_id').notNullable().unique();
    t.text('subscription_id').notNullable().references('webhook_subscriptions.id').onDelete('CASCADE');
    t.text('type').notNullable();
    t.text('body').notNullable();
    // pending, delivered, failed
    t.text('status').notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    // A worker holds a claimed row until then; a worker that died lets it go when it passes.
    t.timestamp('locked_until', { useTz: true });
    t.integer('last_status');
    t.integer('last_latency_ms');
    t.text('last_error');
    t.text('last_response');
    t.timestamp('last_attempt_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['subscription_id', 'id']);
  });
  // What workers look for: the due pending rows, oldest first.
  await db.raw(`CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (next_attempt_at, id) WHERE status = 'pending'`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_deliveries');
  await db.schema.dropTable('webhook_subscriptions');
}
