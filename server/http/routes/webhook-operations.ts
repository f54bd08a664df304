/**
 * The webhook routes as data: method, path, what each takes and answers. The router (webhooks.ts)
 * mounts them, and the OpenAPI document, the Postman collection and llms.txt describe them from
 * this same list. Unlike the read routes they change state, so they are never cached, take a JSON
 * body where they need one, and count against the per-minute limit but not the quota.
 */
import { z } from 'zod';
import { CURRENCY_CODES } from '../../../shared/currency-catalog';
import { WEBHOOK_EVENTS } from '../../domain/webhooks/events';
import { MAX_SUBSCRIPTIONS_PER_KEY } from '../../store/webhooks';

export const ThresholdSchema = z
  .object({
    side: z.enum(['buy', 'sell']).meta({ description: 'Which side of the rate to watch.' }),
    above: z.number().positive().optional().meta({ description: 'Fire when a new rate goes above this.' }),
    below: z.number().positive().optional().meta({ description: 'Fire when a new rate goes below this.' }),
  })
  .strict()
  .meta({
    description: 'A line on one side of the rate: fired once when a newly stored rate crosses it, re-armed when a later rate is back.',
  });

export const CreateWebhookSchema = z
  .object({
    url: z.string().max(2048).meta({ description: 'Where to POST the events: https:// (http:// only where the server allows it), never a private address.' }),
    events: z
      .array(z.enum(WEBHOOK_EVENTS))
      .min(1)
      .meta({ description: `The events to receive: ${WEBHOOK_EVENTS.join(', ')}.` }),
    currency: z.string().optional().meta({ description: 'The currency of rate.published and threshold.crossed (default USD).' }),
    threshold: ThresholdSchema.optional(),
  })
  .meta({ description: 'A new subscription.' });

const SubscriptionFields = {
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  currency: z.string(),
  threshold: ThresholdSchema.nullable(),
  createdAt: z.string(),
};

export const WebhookSchema = z
  .object({
    ...SubscriptionFields,
    disabled: z.boolean().meta({ description: 'Disabled after 5 failed deliveries in a row: nothing more is sent; delete it and subscribe again.' }),
    disabledAt: z.string().nullable(),
    consecutiveFailures: z.number().int(),
  })
  .meta({ description: 'A subscription, without its secret.' });

export const CreatedWebhookSchema = z
  .object({
    ...SubscriptionFields,
    secret: z.string().meta({ description: 'whsec_… : shown this once, never again. The HMAC key is the base64 after whsec_.' }),
  })
  .meta({ description: 'The new subscription, with its secret (shown this once).' });

export const WebhookDeliverySchema = z
  .object({
    id: z.number().int(),
    eventId: z.string().meta({ description: 'The Webhook-Id the receiver saw.' }),
    type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastStatus: z.number().int().nullable().meta({ description: 'The HTTP status of the last attempt (null: no answer).' }),
    lastLatencyMs: z.number().int().nullable(),
    lastError: z.string().nullable(),
    lastResponse: z.string().nullable().meta({ description: 'The first 1 KB of the last answer.' }),
    lastAttemptAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ description: 'One delivery of one event to one subscription.' });

export type WebhookOperationId = 'create' | 'list' | 'remove' | 'test' | 'deliveries' | 'retry';

export interface WebhookOperation {
  id: WebhookOperationId;
  method: 'get' | 'post' | 'delete';
  /** With `{name}` for path parameters, as OpenAPI writes them. */
  path: string;
  summary: string;
  description: string;
  body?: z.ZodType;
  /** A body the route accepts: the OpenAPI document shows it and the Postman collection sends it. */
  example?: Record<string, unknown>;
  /** The success status and its data (none for a 204). */
  status: 200 | 201 | 202 | 204;
  response?: z.ZodType;
  notFound?: string;
}

export const WEBHOOK_OPERATIONS: readonly WebhookOperation[] = [
  {
    id: 'create',
    method: 'post',
    path: '/webhooks',
    summary: 'Subscribe a URL to events',
    description: `The URL is checked now (https, and every address it resolves to public) and again at each delivery. At most ${MAX_SUBSCRIPTIONS_PER_KEY} subscriptions per key. The secret signs every delivery (Standard Webhooks) and is shown in this answer only.`,
    body: CreateWebhookSchema,
    example: {
      url: 'https://example.com/hooks/crc-rates',
      events: ['rate.published', 'threshold.crossed'],
      currency: 'USD',
      threshold: { side: 'sell', above: 520 },
    },
    status: 201,
    response: CreatedWebhookSchema,
  },
  {
    id: 'list',
    method: 'get',
    path: '/webhooks',
    summary: 'The key’s webhook subscriptions',
    description: 'Every subscription of the key, oldest first, without secrets, saying whether it was disabled.',
    status: 200,
    response: z.array(WebhookSchema),
  },
  {
    id: 'remove',
    method: 'delete',
    path: '/webhooks/{id}',
    summary: 'Delete a subscription',
    description: 'Deletes the subscription and its pending deliveries.',
    status: 204,
    notFound: 'the key has no subscription with this id',
  },
  {
    id: 'test',
    method: 'post',
    path: '/webhooks/{id}/test',
    summary: 'Send a ping',
    description: 'Queues a `ping` event to the subscription, delivered (and retried) like any other.',
    status: 202,
    response: WebhookDeliverySchema,
    notFound: 'the key has no subscription with this id',
  },
  {
    id: 'deliveries',
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    summary: 'The last 100 deliveries',
    description: 'Newest first: status, attempts, next attempt, last HTTP status and latency.',
    status: 200,
    response: z.array(WebhookDeliverySchema),
    notFound: 'the key has no subscription with this id',
  },
  {
    id: 'retry',
    method: 'post',
    path: '/webhooks/{id}/deliveries/{deliveryId}/retry',
    summary: 'Send a delivery again',
    description: 'Queues the delivery again now, with a fresh set of attempts (a delivered one is sent once more, with the same Webhook-Id).',
    status: 202,
    response: WebhookDeliverySchema,
    notFound: 'the key has no subscription with this id, or it has no such delivery',
  },
];

export { CURRENCY_CODES };
