/**
 * Events born where the data changes: each function here runs inside the transaction that stores
 * the data, and writes one delivery per subscription that asked for the event into the outbox
 * (webhook_deliveries). The data and its deliveries commit together or not at all, so no event is
 * lost to a crash between them and none is sent for data that was rolled back.
 */
import type { Knex } from 'knex';
import { derivedCurrency, DOLLAR } from '../../shared/currency-catalog';
import type { ExchangeRate, MonexSession, Revision } from '../../shared/types';
import { derivedRecord } from '../domain/derive';
import { eventBody, newEventId, type WebhookEvent } from '../domain/webhooks/events';
import { crossed, stateOf, type Threshold, type ThresholdState } from '../domain/webhooks/threshold';
import { type RateRow, toRecord } from './rates';

interface ActiveSubscription {
  id: string;
  events: WebhookEvent[];
  currency: string;
  threshold: Threshold | null;
  threshold_state: ThresholdState | null;
}

interface Outgoing {
  subscriptionId: string;
  type: WebhookEvent;
  data: unknown;
}

/** The active subscriptions that asked for any of `events`, oldest first (their deliveries are written in that order). */
async function subscribers(trx: Knex, events: readonly WebhookEvent[]): Promise<ActiveSubscription[]> {
  return (await trx('webhook_subscriptions')
    .select('id', 'events', 'currency', 'threshold', 'threshold_state')
    .whereNull('disabled_at')
    .whereRaw('events && ?::text[]', [events as string[]])
    .orderBy('created_at')
    .orderBy('id')) as ActiveSubscription[];
}

async function write(trx: Knex, outgoing: readonly Outgoing[], now: Date): Promise<number> {
  if (outgoing.length === 0) return 0;
  const rows = outgoing.map((o) => {
    const id = newEventId();
    return { event_id: id, subscription_id: o.subscriptionId, type: o.type, body: eventBody(id, o.type, now, o.data), next_attempt_at: now, created_at: now };
  });
  for (let i = 0; i < rows.length; i += 500) await trx('webhook_deliveries').insert(rows.slice(i, i + 500));
  return rows.length;
}

/** The records of `dates` in a currency, as the API serves them (a derived currency needs its cross rate of the day). */
async function recordsIn(trx: Knex, currency: string, dates: readonly string[]): Promise<ExchangeRate[]> {
  const dollar = ((await trx('exchange_rates').select('date', 'buy', 'sell', 'source', 'fetched_at').whereIn('date', dates).orderBy('date')) as RateRow[]).map(
    toRecord,
  );
  if (currency === DOLLAR.code) return dollar;
  const derived = derivedCurrency(currency);
  if (!derived) return [];
  const cross = (await trx('cross_rates').select('date', 'value', 'source', 'fetched_at').where({ currency }).whereIn('date', dates)) as Array<{
    date: string;
    value: number;
    source: ExchangeRate['source'];
    fetched_at: Date;
  }>;
  const byDate = new Map(cross.map((c) => [c.date, c]));
  return dollar.flatMap((usd) => {
    const c = byDate.get(usd.date);
    return c ? [derivedRecord(derived, usd, { date: c.date, value: c.value, source: c.source, fetchedAt: c.fetched_at })] : [];
  });
}

/**
 * `rate.published` and `threshold.crossed` for days whose record in some currency became
 * available in this transaction: `dollarDates` (new official days: every currency's record of the
 * day may now exist) and `crossDates` (new cross rates of one currency: that currency's record).
 */
async function published(
  trx: Knex,
  now: Date,
  dollarDates: readonly string[],
  crossDates: { currency: string; dates: readonly string[] } | null,
): Promise<number> {
  const subs = await subscribers(trx, ['rate.published', 'threshold.crossed']);
  const outgoing: Outgoing[] = [];
  const records = new Map<string, ExchangeRate[]>();
  for (const sub of subs) {
    const dates = crossDates ? (sub.currency === crossDates.currency ? crossDates.dates : []) : dollarDates;
    if (dates.length === 0) continue;
    let list = records.get(sub.currency);
    if (!list) {
      list = await recordsIn(trx, sub.currency, dates);
      records.set(sub.currency, list);
    }
    if (sub.events.includes('rate.published')) for (const record of list) outgoing.push({ subscriptionId: sub.id, type: 'rate.published', data: record });
    if (sub.events.includes('threshold.crossed') && sub.threshold && list.length > 0) {
      let state = sub.threshold_state;
      for (const record of list) {
        const next = stateOf(sub.threshold, record[sub.threshold.side]);
        const crossing = crossed(state, next);
        if (crossing) outgoing.push({ subscriptionId: sub.id, type: 'threshold.crossed', data: { threshold: sub.threshold, crossed: crossing, record } });
        state = next;
      }
      await trx('webhook_subscriptions').where({ id: sub.id }).update({ threshold_state: state });
    }
  }
  return write(trx, outgoing, now);
}

/**
 * After the official series was written in `trx`: `rate.published` for the new days (those after
 * the greatest day stored before, so a backfill of old years tells nobody of 1983), the
 * thresholds they cross, and `rate.revised` for every revision the write made (read from the
 * revision log, written by its trigger in this same transaction, from `revisionsAfter` on).
 */
export async function enqueueRateEvents(trx: Knex, change: { newDates: readonly string[]; revisionsAfter: number }, now: Date): Promise<number> {
  let count = await published(trx, now, change.newDates, null);
  const revisions = (await trx('rate_revisions')
    .select('id', 'date', 'buy', 'sell', 'source', 'new_buy', 'new_sell', 'new_source', 'replaced_at')
    .where('id', '>', change.revisionsAfter)
    .orderBy('id')) as Array<{
    date: string;
    buy: number;
    sell: number;
    source: Revision['before']['source'];
    new_buy: number;
    new_sell: number;
    new_source: Revision['after']['source'];
    replaced_at: Date;
  }>;
  if (revisions.length > 0) {
    const subs = (await subscribers(trx, ['rate.revised'])).filter((s) => s.events.includes('rate.revised') && s.currency === DOLLAR.code);
    const outgoing: Outgoing[] = [];
    for (const sub of subs) {
      for (const r of revisions) {
        const revision: Revision = {
          date: r.date,
          before: { buy: r.buy, sell: r.sell, source: r.source },
          after: { buy: r.new_buy, sell: r.new_sell, source: r.new_source },
          revisedAt: r.replaced_at.toISOString(),
        };
        outgoing.push({ subscriptionId: sub.id, type: 'rate.revised', data: revision });
      }
    }
    count += await write(trx, outgoing, now);
  }
  return count;
}

/** The last revision id before a write, for `enqueueRateEvents`. */
export async function lastRevisionId(trx: Knex): Promise<number> {
  const row = (await trx('rate_revisions').max('id as max').first()) as { max: string | number | null } | undefined;
  return Number(row?.max ?? 0);
}

/** After a currency's cross rates were written in `trx`: `rate.published` (and thresholds) for the days of that currency whose record now exists. */
export async function enqueueCrossEvents(trx: Knex, currency: string, newDates: readonly string[], now: Date): Promise<number> {
  if (newDates.length === 0) return 0;
  return published(trx, now, [], { currency, dates: newDates });
}

/**
 * `monex.session` for sessions stored in `trx`: the MONEX store calls it in the transaction that
 * writes them, with the sessions new or changed by that write.
 */
export async function enqueueMonexSessions(trx: Knex, sessions: readonly MonexSession[], now: Date = new Date()): Promise<number> {
  if (sessions.length === 0) return 0;
  const subs = await subscribers(trx, ['monex.session']);
  return write(
    trx,
    subs.flatMap((sub) => sessions.map((session): Outgoing => ({ subscriptionId: sub.id, type: 'monex.session', data: session }))),
    now,
  );
}
