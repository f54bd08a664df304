/**
 * Delivers the webhooks' outbox. Each round claims due deliveries (webhook store: the oldest
 * pending one of each subscription, FOR UPDATE SKIP LOCKED, under a lease), sends them with a
 * bound per receiving host, and records each outcome: delivered, tried again later (backoff.ts)
 * or failed, disabling a subscription after FAILURES_TO_DISABLE failed deliveries in a row. Any
 * number of instances may run one on PostgreSQL; on the embedded database the server's does it.
 */
import type { Knex } from 'knex';
import { FAILURES_TO_DISABLE, nextAttemptAt } from '../domain/webhooks/backoff';
import { unseal } from '../domain/webhooks/seal';
import { signedHeaders } from '../domain/webhooks/signature';
import type { Logger } from '../logger';
import { type ClaimedDelivery, createWebhooksStore } from '../store/webhooks';
import { sendWebhook } from './webhook-send';
import { DELIVERY_TIMEOUT_MS } from './webhook-send';
import type { TargetPolicy } from './webhook-target';

export interface WebhookWorkerDeps {
  db: Knex;
  logger: Logger;
  clock: () => Date;
  /** The key subscription secrets are sealed with (config: WEBHOOK_SECRET_KEY). */
  sealKey: Buffer;
  policy: TargetPolicy;
  random?: () => number;
  /** Deliveries claimed per round. */
  batch?: number;
  /** At most this many requests to one host at once. */
  perHost?: number;
  /** How often an idle worker looks for due deliveries. */
  pollMs?: number;
  timeoutMs?: number;
  /**
   * How long a claimed delivery stays this worker's (config: WEBHOOK_LEASE_SECONDS): longer than an
   * attempt can take, so a row is never sent twice at once; a worker that died lets it go after this.
   * Default: six attempts' timeout.
   */
  leaseMs?: number;
}

export interface WebhookWorker {
  /** Claims and sends one round; resolves with how many deliveries it attempted. */
  runOnce(): Promise<number>;
  /** Looks for due deliveries now instead of at the next poll (new events were stored). */
  nudge(): void;
  start(): void;
  /** Stops polling and waits for the round in flight. */
  stop(): Promise<void>;
}

/** Runs `task` for each item, at most `limit` at once for items of the same `group`. */
async function boundedPerGroup<T>(items: readonly T[], group: (item: T) => string, limit: number, task: (item: T) => Promise<void>): Promise<void> {
  const queues = new Map<string, T[]>();
  for (const item of items) {
    const key = group(item);
    const queue = queues.get(key) ?? [];
    queue.push(item);
    queues.set(key, queue);
  }
  const lanes: Promise<void>[] = [];
  for (const queue of queues.values()) {
    for (let lane = 0; lane < Math.min(limit, queue.length); lane++) {
      lanes.push(
        (async () => {
          for (let item = queue.shift(); item !== undefined; item = queue.shift()) await task(item);
        })(),
      );
    }
  }
  await Promise.all(lanes);
}

export function createWebhookWorker(deps: WebhookWorkerDeps): WebhookWorker {
  const store = createWebhooksStore(deps.db);
  const random = deps.random ?? Math.random;
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const leaseMs = deps.leaseMs ?? timeoutMs * 6;
  if (leaseMs <= timeoutMs) throw new Error(`a webhook lease of ${leaseMs} ms would let a delivery be sent again while an attempt (${timeoutMs} ms) runs`);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = true;

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const sentAt = deps.clock();
    let secret: string;
    try {
      secret = unseal(deps.sealKey, delivery.secretSealed);
    } catch (error) {
      // Sealed under another key (WEBHOOK_SECRET_KEY changed): nothing can sign it; keep it for when the key is back.
      deps.logger.error({ err: error, subscription: delivery.subscriptionId }, 'a webhook secret cannot be read with this WEBHOOK_SECRET_KEY');
      await store.attemptFailed(
        delivery,
        { status: null, latencyMs: null, error: 'the secret cannot be read with the server’s key', response: null },
        sentAt,
        nextAttemptAt(1, sentAt, random),
        FAILURES_TO_DISABLE,
      );
      return;
    }
    const headers = signedHeaders(secret, delivery.eventId, Math.floor(sentAt.getTime() / 1000), delivery.body);
    const outcome = await sendWebhook(delivery.url, headers, delivery.body, deps.policy, timeoutMs);
    const now = deps.clock();
    if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) {
      await store.delivered(delivery, outcome, now);
      return;
    }
    const retryAt = nextAttemptAt(delivery.attempts + 1, now, random);
    const disabled = await store.attemptFailed(delivery, outcome, now, retryAt, FAILURES_TO_DISABLE);
    if (!retryAt)
      deps.logger.warn({ subscription: delivery.subscriptionId, delivery: delivery.id, error: outcome.error }, 'a webhook delivery failed for good');
    if (disabled)
      deps.logger.warn(
        { subscription: delivery.subscriptionId },
        `a webhook subscription was disabled after ${FAILURES_TO_DISABLE} failed deliveries in a row`,
      );
  }

  async function round(): Promise<number> {
    const claimed = await store.claim(deps.clock(), deps.batch ?? 20, leaseMs);
    await boundedPerGroup(
      claimed,
      (d) => {
        try {
          return new URL(d.url).host;
        } catch {
          return d.url;
        }
      },
      deps.perHost ?? 4,
      attempt,
    );
    return claimed.length;
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        do {
          again = false;
          const count = await round();
          total += count;
          // A full round may have left more behind: go on while there is work.
          if (count > 0 && !stopped) again = true;
        } while (again && !stopped);
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  }

  const tick = () => {
    runOnce()
      .catch((error: unknown) => deps.logger.error({ err: error }, 'webhook delivery round failed'))
      .finally(() => {
        if (stopped) return;
        if (timer) clearTimeout(timer);
        timer = setTimeout(tick, deps.pollMs ?? 1000);
      });
  };

  return {
    runOnce,
    nudge() {
      if (stopped) return;
      if (timer) clearTimeout(timer);
      timer = null;
      tick();
    },
    start() {
      if (!stopped) return;
      stopped = false;
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (running) await running.catch(() => 0);
    },
  };
}
