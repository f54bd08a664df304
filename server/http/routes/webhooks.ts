/**
 * Mounts the webhook routes (webhook-operations.ts) on the API's router: keyed, counted against
 * the per-minute limit but not the quota, never cached. Each validates its body and path and hands
 * the store a few plain values.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import type { AccessControl } from '../../access/access';
import { guard } from '../../access/guard';
import type { AppState } from '../../app-state';
import { eventBody, newEventId } from '../../domain/webhooks/events';
import { seal } from '../../domain/webhooks/seal';
import { newSecret } from '../../domain/webhooks/signature';
import { stateOf } from '../../domain/webhooks/threshold';
import type { ExchangeRate } from '../../../shared/types';
import { badRequest, notFound } from '../../errors';
import { type Subscription, SubscriptionLimitError, type WebhooksStore } from '../../store/webhooks';
import { parseBody } from '../middleware/body';
import { CreateWebhookSchema, CURRENCY_CODES, WEBHOOK_OPERATIONS, type WebhookOperationId } from './webhook-operations';

export interface WebhookRoutesDeps {
  store: WebhooksStore;
  access: AccessControl;
  /** Throws an Error whose message says why the URL may not be subscribed (it completes "url …"). */
  checkUrl: (url: string) => Promise<void>;
  sealKey: Buffer;
  clock: () => Date;
  /** New deliveries were queued: the worker may look now. */
  onQueued: () => void;
  /** The latest record of a currency, which arms a new threshold. */
  latest: (currency: string) => Promise<ExchangeRate | null>;
}

const SUBSCRIPTION_ID = /^wh_[A-Za-z0-9_-]{16,64}$/;
const DELIVERY_ID = /^[1-9]\d{0,15}$/;

/** What a subscription shows its key: never the secret. */
const shown = ({ keyId: _k, ...s }: Subscription) => s;

/** The first problem zod found, naming the field as the body writes it. */
function bodyProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : 'body';
  return `${field}: ${issue?.message ?? 'invalid'}`;
}

export function mountWebhooks(router: Router<AppState>, deps: WebhookRoutesDeps): void {
  const keyed = guard(deps.access, { access: 'key', quota: false, rateLimit: true });
  const json = parseBody(['json'], 'The body must be valid JSON');
  const keyOf = (ctx: Context) => {
    const { apiKey }: AppState = ctx.state;
    if (!apiKey) throw new Error('a keyed route ran without a key');
    return apiKey;
  };
  const subscriptionOf = async (ctx: Context) => {
    const id = String(ctx.params.id ?? '');
    const found = SUBSCRIPTION_ID.test(id) ? await deps.store.find(keyOf(ctx).id, id) : null;
    if (!found) throw notFound(`No webhook subscription ${JSON.stringify(id.slice(0, 80))} for this key`);
    return found;
  };
  const answer = (ctx: Context, status: number, data?: unknown) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.status = status;
    if (status !== 204) ctx.body = { success: true, data };
  };

  const handlers: Record<WebhookOperationId, Middleware[]> = {
    create: [
      json,
      async (ctx) => {
        const parsed = CreateWebhookSchema.safeParse((ctx.request as { body?: unknown }).body);
        if (!parsed.success) throw badRequest(bodyProblem(parsed.error));
        const { url, events, threshold } = parsed.data;
        const currency = (parsed.data.currency ?? 'USD').toUpperCase();
        if (!CURRENCY_CODES.includes(currency))
          throw badRequest('currency: must be a supported ISO 4217 code such as USD, EUR or JPY (GET /api/v1/currencies lists them)');
        if (events.includes('threshold.crossed') && !threshold) throw badRequest('threshold: threshold.crossed needs a threshold { side, above?, below? }');
        if (threshold && threshold.above === undefined && threshold.below === undefined) throw badRequest('threshold: give above, below or both');
        if (threshold?.above !== undefined && threshold.below !== undefined && threshold.below >= threshold.above)
          throw badRequest('threshold: below must be less than above');
        try {
          await deps.checkUrl(url);
        } catch (error) {
          throw badRequest(`url ${(error as Error).message}`);
        }
        const latest = threshold ? await deps.latest(currency) : null;
        const secret = newSecret();
        try {
          const created = await deps.store.create({
            id: `wh_${newEventId().slice(4)}`,
            keyId: keyOf(ctx).id,
            url,
            events,
            currency,
            threshold: threshold ?? null,
            secretSealed: seal(deps.sealKey, secret),
            thresholdState: threshold && latest ? stateOf(threshold, latest[threshold.side]) : null,
            createdAt: deps.clock(),
          });
          answer(ctx, 201, {
            id: created.id,
            url: created.url,
            events: created.events,
            currency: created.currency,
            threshold: created.threshold,
            secret,
            createdAt: created.createdAt,
          });
        } catch (error) {
          if (error instanceof SubscriptionLimitError) throw badRequest(error.message);
          throw error;
        }
      },
    ],
    list: [async (ctx) => answer(ctx, 200, (await deps.store.list(keyOf(ctx).id)).map(shown))],
    remove: [
      async (ctx) => {
        const sub = await subscriptionOf(ctx);
        await deps.store.remove(sub.id, keyOf(ctx).id);
        answer(ctx, 204);
      },
    ],
    test: [
      async (ctx) => {
        const sub = await subscriptionOf(ctx);
        const now = deps.clock();
        const id = newEventId();
        const delivery = await deps.store.enqueueOne(sub.id, id, 'ping', eventBody(id, 'ping', now, { subscriptionId: sub.id }), now);
        deps.onQueued();
        answer(ctx, 202, delivery);
      },
    ],
    deliveries: [async (ctx) => answer(ctx, 200, await deps.store.deliveries((await subscriptionOf(ctx)).id))],
    retry: [
      async (ctx) => {
        const sub = await subscriptionOf(ctx);
        const raw = String(ctx.params.deliveryId ?? '');
        const delivery = DELIVERY_ID.test(raw) ? await deps.store.retry(sub.id, Number(raw), deps.clock()) : null;
        if (!delivery) throw notFound(`No delivery ${JSON.stringify(raw.slice(0, 20))} for this subscription`);
        deps.onQueued();
        answer(ctx, 202, delivery);
      },
    ],
  };

  for (const operation of WEBHOOK_OPERATIONS) {
    const path = operation.path.replace(/\{(\w+)\}/g, ':$1');
    router[operation.method](path, keyed, ...handlers[operation.id]);
  }
}
