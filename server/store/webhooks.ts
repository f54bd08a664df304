/**
 * Webhook subscriptions and their deliveries (migration 013): what the routes, the operator's
 * command and the delivery worker read and write. The events themselves are written by
 * webhook-events.ts, in the transactions of the data that caused them.
 */
import type { Knex } from 'knex';
import type { Threshold } from '../domain/webhooks/threshold';

/** At most this many subscriptions per key. */
export const MAX_SUBSCRIPTIONS_PER_KEY = 10;
/** The deliveries a subscription's log shows. */
export const DELIVERY_LOG_LENGTH = 100;
/** Bytes of a receiver's answer kept with a delivery. */
export const RESPONSE_BYTES_KEPT = 1024;

export type { WebhookEvent as WebhookEventType } from '../domain/webhooks/events';
import type { WebhookEvent as WebhookEventType } from '../domain/webhooks/events';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Subscription {
  id: string;
  keyId: number;
  url: string;
  events: WebhookEventType[];
  currency: string;
  threshold: Threshold | null;
  createdAt: string;
  disabled: boolean;
  disabledAt: string | null;
  consecutiveFailures: number;
}

interface SubscriptionRow {
  id: string;
  key_id: number;
  url: string;
  events: WebhookEventType[];
  currency: string;
  threshold: Threshold | null;
  secret_sealed: string;
  consecutive_failures: number;
  disabled_at: Date | null;
  created_at: Date;
}

export interface Delivery {
  id: number;
  eventId: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatus: number | null;
  lastLatencyMs: number | null;
  lastError: string | null;
  lastResponse: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
}

interface DeliveryRow {
  id: string | number;
  event_id: string;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_status: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  last_response: string | null;
  last_attempt_at: Date | null;
  created_at: Date;
}

/** A delivery a worker claimed: what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  eventId: string;
  subscriptionId: string;
  url: string;
  secretSealed: string;
  body: string;
  attempts: number;
}

export class SubscriptionLimitError extends Error {
  constructor() {
    super(`A key has at most ${MAX_SUBSCRIPTIONS_PER_KEY} webhook subscriptions: delete one first`);
    this.name = 'SubscriptionLimitError';
  }
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    keyId: row.key_id,
    url: row.url,
    events: row.events,
    currency: row.currency,
    threshold: row.threshold,
    createdAt: row.created_at.toISOString(),
    disabled: row.disabled_at !== null,
    disabledAt: iso(row.disabled_at),
    consecutiveFailures: row.consecutive_failures,
  };
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: Number(row.id),
    eventId: row.event_id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    lastStatus: row.last_status,
    lastLatencyMs: row.last_latency_ms,
    lastError: row.last_error,
    lastResponse: row.last_response,
    lastAttemptAt: iso(row.last_attempt_at),
    createdAt: row.created_at.toISOString(),
  };
}

const SUBSCRIPTION_COLUMNS = ['id', 'key_id', 'url', 'events', 'currency', 'threshold', 'secret_sealed', 'consecutive_failures', 'disabled_at', 'created_at'];
const DELIVERY_COLUMNS = [
  'id',
  'event_id',
  'type',
  'status',
  'attempts',
  'next_attempt_at',
  'last_status',
  'last_latency_ms',
  'last_error',
  'last_response',
  'last_attempt_at',
  'created_at',
];

export interface NewSubscription {
  id: string;
  keyId: number;
  url: string;
  events: readonly WebhookEventType[];
  currency: string;
  threshold: Threshold | null;
  secretSealed: string;
  createdAt: Date;
  /** Where the latest stored rate stands against the threshold, so the first new rate past it fires. */
  thresholdState: string | null;
}

export interface AttemptOutcome {
  status: number | null;
  latencyMs: number | null;
  error: string | null;
  response: string | null;
}

export function createWebhooksStore(db: Knex) {
  const subscriptions = () => db('webhook_subscriptions');

  return {
    /** Stores a subscription, unless its key has the most it may: the key's row is locked meanwhile, so two at once cannot both be the tenth. */
    async create(input: NewSubscription): Promise<Subscription> {
      return db.transaction(async (trx) => {
        await trx('api_keys').where({ id: input.keyId }).forUpdate().first('id');
        const row = await trx('webhook_subscriptions').where({ key_id: input.keyId }).count<{ count: string | number }[]>('* as count').first();
        if (Number(row?.count ?? 0) >= MAX_SUBSCRIPTIONS_PER_KEY) throw new SubscriptionLimitError();
        const [stored] = (await trx('webhook_subscriptions')
          .insert({
            id: input.id,
            key_id: input.keyId,
            url: input.url,
            events: [...input.events],
            currency: input.currency,
            threshold: input.threshold ? JSON.stringify(input.threshold) : null,
            secret_sealed: input.secretSealed,
            threshold_state: input.thresholdState,
            created_at: input.createdAt,
          })
          .returning(SUBSCRIPTION_COLUMNS)) as SubscriptionRow[];
        return toSubscription(stored as SubscriptionRow);
      });
    },

    async list(keyId: number): Promise<Subscription[]> {
      const rows = (await subscriptions().select(SUBSCRIPTION_COLUMNS).where({ key_id: keyId }).orderBy('created_at').orderBy('id')) as SubscriptionRow[];
      return rows.map(toSubscription);
    },

    /** Every subscription of every key, for the operator. */
    async listAll(): Promise<Subscription[]> {
      const rows = (await subscriptions().select(SUBSCRIPTION_COLUMNS).orderBy('created_at').orderBy('id')) as SubscriptionRow[];
      return rows.map(toSubscription);
    },

    /** One of the key's subscriptions with its sealed secret, or null (another key's is null too). */
    async find(keyId: number, id: string): Promise<(Subscription & { secretSealed: string }) | null> {
      const row = (await subscriptions().select(SUBSCRIPTION_COLUMNS).where({ key_id: keyId, id }).first()) as SubscriptionRow | undefined;
      return row ? { ...toSubscription(row), secretSealed: row.secret_sealed } : null;
    },

    /** Deletes a subscription and its deliveries; `keyId` null is the operator's (any key's). */
    async remove(id: string, keyId: number | null): Promise<boolean> {
      const query = subscriptions().where({ id });
      if (keyId !== null) query.andWhere({ key_id: keyId });
      return ((await query.delete().returning('id')) as unknown[]).length > 0;
    },

    /** The subscription's latest deliveries, newest first. */
    async deliveries(subscriptionId: string): Promise<Delivery[]> {
      const rows = (await db('webhook_deliveries')
        .select(DELIVERY_COLUMNS)
        .where({ subscription_id: subscriptionId })
        .orderBy('id', 'desc')
        .limit(DELIVERY_LOG_LENGTH)) as DeliveryRow[];
      return rows.map(toDelivery);
    },

    /** Queues one delivery to be sent again now, with a fresh set of attempts; null when the subscription has no such delivery. */
    async retry(subscriptionId: string, deliveryId: number, now: Date): Promise<Delivery | null> {
      const [row] = (await db('webhook_deliveries')
        .where({ id: deliveryId, subscription_id: subscriptionId })
        .update({ status: 'pending', attempts: 0, next_attempt_at: now, locked_until: null })
        .returning(DELIVERY_COLUMNS)) as DeliveryRow[];
      return row ? toDelivery(row) : null;
    },

    /** Writes one event for one subscription (a ping, a manual test). */
    async enqueueOne(subscriptionId: string, eventId: string, type: string, body: string, now: Date): Promise<Delivery> {
      const [row] = (await db('webhook_deliveries')
        .insert({ event_id: eventId, subscription_id: subscriptionId, type, body, next_attempt_at: now, created_at: now })
        .returning(DELIVERY_COLUMNS)) as DeliveryRow[];
      return toDelivery(row as DeliveryRow);
    },

    /**
     * Claims up to `limit` due deliveries for `leaseMs`: only the oldest pending one of each active
     * subscription (creation order), skipping rows another worker holds (SKIP LOCKED), so every
     * instance may claim at once and none gets a row another has.
     */
    async claim(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
      return db.transaction(async (trx) => {
        const { rows } = (await trx.raw(
          `SELECT d.id FROM webhook_deliveries d
           JOIN webhook_subscriptions s ON s.id = d.subscription_id AND s.disabled_at IS NULL
           WHERE d.status = 'pending' AND d.next_attempt_at <= :now
             AND (d.locked_until IS NULL OR d.locked_until <= :now)
             AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e
                             WHERE e.subscription_id = d.subscription_id AND e.status = 'pending' AND e.id < d.id)
           ORDER BY d.next_attempt_at, d.id
           LIMIT :limit
           FOR UPDATE OF d SKIP LOCKED`,
          { now, limit },
        )) as { rows: Array<{ id: string | number }> };
        if (rows.length === 0) return [];
        const ids = rows.map((r) => Number(r.id));
        await trx('webhook_deliveries')
          .whereIn('id', ids)
          .update({ locked_until: new Date(now.getTime() + leaseMs) });
        const claimed = (await trx('webhook_deliveries as d')
          .join('webhook_subscriptions as s', 's.id', 'd.subscription_id')
          .select('d.id', 'd.event_id', 'd.subscription_id', 's.url', 's.secret_sealed', 'd.body', 'd.attempts')
          .whereIn('d.id', ids)
          .orderBy('d.id')) as Array<{
          id: string | number;
          event_id: string;
          subscription_id: string;
          url: string;
          secret_sealed: string;
          body: string;
          attempts: number;
        }>;
        return claimed.map((r) => ({
          id: Number(r.id),
          eventId: r.event_id,
          subscriptionId: r.subscription_id,
          url: r.url,
          secretSealed: r.secret_sealed,
          body: r.body,
          attempts: r.attempts,
        }));
      });
    },

    /** A 2xx: delivered, and the subscription's run of failures ends. */
    async delivered(delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('webhook_deliveries')
          .where({ id: delivery.id })
          .update({ status: 'delivered', attempts: delivery.attempts + 1, locked_until: null, ...attemptColumns(outcome, now) });
        await trx('webhook_subscriptions').where({ id: delivery.subscriptionId }).update({ consecutive_failures: 0 });
      });
    },

    /**
     * Anything else: tried again at `retryAt`, or failed when no attempt is left. A failed delivery
     * counts against the subscription, which is disabled after `failuresToDisable` in a row.
     * Returns whether this disabled it.
     */
    async attemptFailed(delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date, retryAt: Date | null, failuresToDisable: number): Promise<boolean> {
      return db.transaction(async (trx) => {
        await trx('webhook_deliveries')
          .where({ id: delivery.id })
          .update({
            status: retryAt ? 'pending' : 'failed',
            attempts: delivery.attempts + 1,
            next_attempt_at: retryAt,
            locked_until: null,
            ...attemptColumns(outcome, now),
          });
        if (retryAt) return false;
        const [row] = (await trx('webhook_subscriptions')
          .where({ id: delivery.subscriptionId })
          .increment('consecutive_failures', 1)
          .returning(['consecutive_failures', 'disabled_at'])) as Array<{ consecutive_failures: number; disabled_at: Date | null }>;
        if (!row || row.disabled_at || row.consecutive_failures < failuresToDisable) return false;
        await trx('webhook_subscriptions').where({ id: delivery.subscriptionId }).update({ disabled_at: now });
        return true;
      });
    },

    /** Deliveries by outcome, for metrics. */
    async countsByStatus(): Promise<Array<{ status: DeliveryStatus; count: number }>> {
      const rows = (await db('webhook_deliveries')
        .select('status')
        .count<{ status: DeliveryStatus; count: string | number }[]>('* as count')
        .groupBy('status')) as Array<{
        status: DeliveryStatus;
        count: string | number;
      }>;
      return rows.map((r) => ({ status: r.status, count: Number(r.count) }));
    },

    /** For metrics and health: how many deliveries wait, and since when the oldest due one. */
    async queue(now: Date): Promise<{ pending: number; oldestDueAt: Date | null }> {
      const row = (await db('webhook_deliveries as d')
        .join('webhook_subscriptions as s', 's.id', 'd.subscription_id')
        .where('d.status', 'pending')
        .whereNull('s.disabled_at')
        .select(db.raw('count(*)::integer AS pending'), db.raw('min(d.next_attempt_at) FILTER (WHERE d.next_attempt_at <= ?) AS oldest', [now]))
        .first()) as { pending: number; oldest: Date | null } | undefined;
      return { pending: row?.pending ?? 0, oldestDueAt: row?.oldest ?? null };
    },
  };
}

function attemptColumns(outcome: AttemptOutcome, now: Date) {
  return {
    last_status: outcome.status,
    last_latency_ms: outcome.latencyMs,
    last_error: outcome.error,
    last_response: outcome.response,
    last_attempt_at: now,
  };
}

export type WebhooksStore = ReturnType<typeof createWebhooksStore>;
