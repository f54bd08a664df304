/**
 * Prometheus metrics at /metrics, for operators only (a bearer token, METRICS_TOKEN; without one
 * the route does not exist). Request counts and latencies by route and status are counted as
 * requests pass; sync outcomes, data freshness and the webhooks' deliveries and queue are read from the database at scrape time, so
 * every instance reports the same truth.
 */
import { timingSafeEqual } from 'node:crypto';
import type Router from '@koa/router';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RatesStore } from '../store/rates';
import type { SyncRunsStore } from '../store/sync-runs';
import type { WebhooksStore } from '../store/webhooks';
import { HttpError } from '../errors';
import type { RequestMetrics } from './middleware/record-request';

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function createMetrics({
  rates,
  syncRuns,
  webhooks,
  clock,
}: {
  rates: RatesStore;
  syncRuns: SyncRunsStore;
  webhooks: WebhooksStore;
  clock: () => Date;
}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  type Label = (typeof labelNames)[number];
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new Gauge({
    name: 'crc_sync_runs',
    help: 'Sync runs recorded, by kind and outcome',
    labelNames: ['kind', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { kind, status, count } of await syncRuns.countsByOutcome()) this.set({ kind, status }, count);
    },
  });
  new Gauge({
    name: 'crc_latest_rate_date_seconds',
    help: 'The latest stored official date, as a Unix time (00:00 UTC of that day)',
    registers: [registry],
    async collect() {
      const latest = await rates.lastStoredDate();
      if (latest) this.set(Date.parse(`${latest}T00:00:00Z`) / 1000);
    },
  });
  new Gauge({
    name: 'crc_last_successful_sync_seconds',
    help: 'When the last successful sync of the official series ended, as a Unix time',
    registers: [registry],
    async collect() {
      const finishedAt = await syncRuns.lastSucceededAt('official');
      if (finishedAt) this.set(Date.parse(finishedAt) / 1000);
    },
  });

  new Gauge({
    name: 'crc_webhook_deliveries',
    help: 'Webhook deliveries kept (the last of each subscription), by outcome: pending, delivered, failed',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const { status, count } of await webhooks.countsByStatus()) this.set({ status }, count);
    },
  });
  // Read once per scrape for both gauges below.
  let queue: Promise<{ pending: number; oldestDueAt: Date | null }> | null = null;
  const queueNow = () => {
    queue ??= webhooks.queue(clock()).finally(() => setTimeout(() => (queue = null), 100));
    return queue;
  };
  new Gauge({
    name: 'crc_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be sent (of active subscriptions)',
    registers: [registry],
    async collect() {
      this.set((await queueNow()).pending);
    },
  });
  new Gauge({
    name: 'crc_webhook_oldest_due_seconds',
    help: 'How long the oldest due webhook delivery has waited past its time (0: none waiting)',
    registers: [registry],
    async collect() {
      const { oldestDueAt } = await queueNow();
      this.set(oldestDueAt ? Math.max(0, (clock().getTime() - oldestDueAt.getTime()) / 1000) : 0);
    },
  });

  // One child per label set, found by a plain key: prom-client hashes the label object on every
  // call otherwise, which cost more per request than the rest of the metrics and log together.
  const children = new Map<string, { count: Counter.Internal; duration: Histogram.Internal<Label> }>();
  const childOf = (method: string, route: string, status: number) => {
    const id = `${method} ${route} ${status}`;
    let child = children.get(id);
    if (!child) {
      const labels = { method, route, status: String(status) };
      child = { count: requests.labels(labels), duration: durations.labels(labels) };
      children.set(id, child);
    }
    return child;
  };
  const requestMetrics: RequestMetrics = {
    observe(method, route, status, seconds) {
      const child = childOf(method, route, status);
      child.count.inc();
      child.duration.observe(seconds);
    },
  };

  const mount = (router: Router, token: string | null) => {
    if (!token) return;
    router.get('/metrics', async (ctx) => {
      const sent = (ctx.get('authorization').match(/^Bearer (.+)$/) ?? [])[1] ?? '';
      ctx.set('Cache-Control', 'no-store');
      if (!sameToken(sent, token)) {
        throw new HttpError('UNAUTHORIZED', 'Metrics need the operator token (Authorization: Bearer …)', { 'WWW-Authenticate': 'Bearer' });
      }
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    });
  };

  return { registry, requests: requestMetrics, mount };
}
