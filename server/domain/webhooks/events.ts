/**
 * The events a subscription can ask for, and the body every delivery carries:
 * `{ id, type, createdAt, data }`, written once when the event is stored and sent as is on every
 * attempt (the signature covers these exact bytes).
 */
import { randomBytes } from 'node:crypto';

/** The events a subscription names (`ping` is sent by `POST /webhooks/{id}/test` alone). */
export const WEBHOOK_EVENTS = ['rate.published', 'rate.revised', 'monex.session', 'threshold.crossed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type DeliveredType = WebhookEvent | 'ping';

/** A new event id, as Standard Webhooks writes them (`msg_…`): the receiver's key for deduplication. */
export function newEventId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

export function eventBody(id: string, type: DeliveredType, createdAt: Date, data: unknown): string {
  return JSON.stringify({ id, type, createdAt: createdAt.toISOString(), data });
}
