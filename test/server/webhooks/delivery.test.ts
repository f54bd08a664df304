/**
 * Webhooks end to end against a real receiver on 127.0.0.1: a sync that stores a new day delivers
 * `rate.published`, signed so that the SDK verifies it; a correction delivers `rate.revised`; a
 * receiver that fails twice gets the event on the third attempt (the clock is moved, nothing
 * sleeps); a delivery claimed by a worker that died is delivered by the next; two workers deliver
 * each of many events once, in order per subscription; a threshold fires once and is re-armed;
 * private and http targets are refused by default, at creation and at delivery; an 11th
 * subscription is a 400.
 */
import { addDays } from '../../../shared/dates';
import { verifyWebhook } from '../../../sdk/src/webhooks';
import { ExchangeRateClient } from '../../../sdk/src/client';
import { createLocalChangeFeed } from '../../../server/changes';
import { startFakeUpstream, type FakeUpstream } from '../../../server/demo/bccr-upstream';
import { RETRY_DELAYS_MS } from '../../../server/domain/webhooks/backoff';
import { sealKeyOf } from '../../../server/domain/webhooks/seal';
import { catchUpOfficial } from '../../../server/jobs/catch-up';
import { createWebhookWorker, type WebhookWorker } from '../../../server/jobs/webhook-worker';
import { syncCurrencySpan } from '../../../server/jobs/sync-currencies';
import { derivedCurrency } from '../../../shared/currency-catalog';
import { enqueueMonexSessions } from '../../../server/store/webhook-events';
import { createMonexStore, sessionOf } from '../../../server/store/monex';
import { catchUpMonex } from '../../../server/jobs/sync-monex';
import { NEWS_DAYS } from '../../../server/jobs/sync-official-span';
import { createMonexSourceFrom } from '../../../server/sources';
import { createApiKeysStore } from '../../../server/store/api-keys';
import { createWebhooksStore } from '../../../server/store/webhooks';
import { startTestApp, type TestApp } from '../../helpers/app';
import { crossRate } from '../../helpers/app';
import { clearTables, fakeCrossSource, fakeSources, noonInCostaRica, silentLogger, syncDeps, waitFor } from '../../helpers/sync';
import { call, type Receiver, startReceiver } from '../../helpers/webhooks';

const TODAY = '2026-11-20';
const at = (minutes: number) => new Date(noonInCostaRica(TODAY).getTime() + minutes * 60_000);
const OPEN = { allowHttp: true, allowPrivate: true };
const sealKey = sealKeyOf('a test key of at least thirty-two characters');

let fake: FakeUpstream;
let t: TestApp;
let receiver: Receiver;
let now = at(0);
const clock = () => now;
const changes = createLocalChangeFeed();
const worker = (policy = OPEN): WebhookWorker => createWebhookWorker({ db: t.database.db, logger: silentLogger, clock, sealKey, policy, random: () => 0.5 });
const sync = (from: string, to: string) => catchUpOfficial(syncDeps(t.database.db, clock, changes), fakeSources(fake, 'sdde').sources, { from, to });

beforeAll(async () => {
  fake = await startFakeUpstream({ today: TODAY });
  t = await startTestApp({ clock, changes, webhooks: { sealKey, policy: OPEN } });
});
afterAll(async () => {
  await fake.close();
  await t.close();
});
beforeEach(async () => {
  now = at(0);
  await clearTables(t.database.db);
  await t.database.db('webhook_subscriptions').delete();
  await changes.ratesChanged();
  fake.setRates(null);
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

async function subscribe(body: Record<string, unknown>, key = t.key) {
  const created = await call(t.api, key, 'POST', '/webhooks', { url: receiver.url, events: ['rate.published'], ...body });
  expect(created.status).toBe(201);
  return created.body.data as { id: string; secret: string };
}

/** Runs the worker until a round finds nothing due. */
async function drain(w: WebhookWorker): Promise<void> {
  while ((await w.runOnce()) > 0);
}

it('a sync storing a new day delivers rate.published, signed as the SDK verifies; the log shows it delivered', async () => {
  await sync(addDays(TODAY, -7), addDays(TODAY, -2));
  const { id, secret } = await subscribe({});
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
  await sync(addDays(TODAY, -7), addDays(TODAY, -1));
  await drain(worker());

  expect(receiver.received).toHaveLength(1);
  const [got] = receiver.received;
  const event = await verifyWebhook<{ date: string; buy: number }>(got?.body ?? '', got?.headers ?? {}, secret, { now });
  const day = addDays(TODAY, -1);
  expect(event).toMatchObject({ type: 'rate.published', data: { date: day, currencyFrom: 'USD', buy: fake.rateFor(day)?.buy } });
  expect(got?.headers['webhook-id']).toBe(event.id);
  // Another secret, a changed body or a stale timestamp is refused.
  await expect(verifyWebhook(got?.body ?? '', got?.headers ?? {}, `whsec_${Buffer.alloc(32, 1).toString('base64')}`, { now })).rejects.toThrow(/matches/);
  await expect(verifyWebhook(`${got?.body} `, got?.headers ?? {}, secret, { now })).rejects.toThrow(/matches/);
  await expect(verifyWebhook(got?.body ?? '', got?.headers ?? {}, secret, { now: at(10), toleranceSeconds: 300 })).rejects.toThrow(/old/);

  const log = await call(t.api, t.key, 'GET', `/webhooks/${id}/deliveries`);
  expect(log.body.data).toEqual([
    expect.objectContaining({ eventId: event.id, type: 'rate.published', status: 'delivered', attempts: 1, lastStatus: 200, nextAttemptAt: null }),
  ]);
  // Only 1 KB of the receiver's 3,000-byte answer is kept.
  expect((log.body.data as Array<{ lastResponse: string }>)[0]?.lastResponse).toHaveLength(1024);
});

it('a correction delivers rate.revised, the revision as /exchange-rate/revisions shows it', async () => {
  await sync(addDays(TODAY, -7), addDays(TODAY, -1));
  await subscribe({ events: ['rate.revised', 'rate.published'] });
  const day = addDays(TODAY, -3);
  const was = fake.rateFor(day) as { buy: number; sell: number };
  fake.setRates((date) => (date === day ? { buy: was.buy + 1, sell: was.sell + 1 } : undefined));
  now = at(60);
  await sync(addDays(TODAY, -7), addDays(TODAY, -1));
  await drain(worker());
  const revisions = await t.get(`/exchange-rate/revisions?from=${day}&to=${day}`);
  expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual([
    expect.objectContaining({ type: 'rate.revised', data: (revisions.body.data as unknown[])[0] }),
  ]);
});

it('a receiver answering 500 twice then 200 gets the event on the third attempt, after the backoff', async () => {
  await sync(addDays(TODAY, -7), addDays(TODAY, -2));
  const { id } = await subscribe({});
  await sync(addDays(TODAY, -7), addDays(TODAY, -1));
  receiver.answers.push(500, 500);
  const w = worker();
  expect(await w.runOnce()).toBe(1);
  // Not due again before the first delay has passed.
  now = at(0.5);
  expect(await w.runOnce()).toBe(0);
  now = at(RETRY_DELAYS_MS[0] / 60_000 + 0.01);
  expect(await w.runOnce()).toBe(1);
  now = at(RETRY_DELAYS_MS[0] / 60_000 + 0.01 + RETRY_DELAYS_MS[1] / 60_000 + 0.01);
  expect(await w.runOnce()).toBe(1);
  expect(receiver.received).toHaveLength(3);
  expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
  const log = await call(t.api, t.key, 'GET', `/webhooks/${id}/deliveries`);
  expect(log.body.data).toEqual([expect.objectContaining({ status: 'delivered', attempts: 3, lastStatus: 200 })]);
});

it('a delivery whose worker died is delivered by the next one once its lease passes; a manual retry sends it again', async () => {
  const { id } = await subscribe({});
  await call(t.api, t.key, 'POST', `/webhooks/${id}/test`);
  // A worker claims it and dies before sending.
  expect(await createWebhooksStore(t.database.db).claim(now, 10, 60_000)).toHaveLength(1);
  const next = worker();
  expect(await next.runOnce()).toBe(0);
  now = at(1.01);
  expect(await next.runOnce()).toBe(1);
  expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual(['ping']);
  const [delivery] = (await call(t.api, t.key, 'GET', `/webhooks/${id}/deliveries`)).body.data as Array<{ id: number }>;
  expect((await call(t.api, t.key, 'POST', `/webhooks/${id}/deliveries/${delivery?.id}/retry`)).status).toBe(202);
  await drain(next);
  expect(receiver.received).toHaveLength(2);
  expect((await call(t.api, t.key, 'POST', `/webhooks/${id}/deliveries/99999/retry`)).status).toBe(404);
});

it('a threshold fires once when a new rate crosses it and again only after a rate back on the other side', async () => {
  const day = (n: number) => addDays(TODAY, n);
  // Sell: 500 until day -6, then 510, 511 (still above), 495 (back), 512 (crosses again).
  const sells: Record<string, number> = { [day(-5)]: 510, [day(-4)]: 511, [day(-3)]: 495, [day(-2)]: 512 };
  fake.setRates((date) => ({ buy: 490, sell: sells[date] ?? 500 }));
  await sync(day(-9), day(-6));
  await subscribe({ events: ['threshold.crossed'], threshold: { side: 'sell', above: 505 } });
  for (let n = -5; n <= -2; n++) await sync(day(-9), day(n));
  await drain(worker());
  const events = receiver.received.map((r) => JSON.parse(r.body));
  expect(events.map((e) => [e.type, e.data.crossed, e.data.record.date])).toEqual([
    ['threshold.crossed', 'above', day(-5)],
    ['threshold.crossed', 'above', day(-2)],
  ]);
});

it('private and http targets are refused by default, at creation and at delivery', async () => {
  const closed = await startTestApp({ database: t.database, clock, changes });
  try {
    const http = await call(closed.api, t.key, 'POST', '/webhooks', { url: receiver.url, events: ['rate.published'] });
    expect(http).toMatchObject({ status: 400, body: { error: 'BAD_REQUEST', message: expect.stringMatching(/^url must use https:\/\//) } });
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:10.0.0.1]', '169.254.169.254', '[fe80::1]', 'localhost']) {
      const refused = await call(closed.api, t.key, 'POST', '/webhooks', { url: `https://${host}/hook`, events: ['rate.published'] });
      expect([host, refused.status, refused.body.message]).toEqual([host, 400, expect.stringMatching(/^url resolves to a private address/)]);
    }
  } finally {
    await closed.close();
  }
  // Subscribed where it was allowed, delivered by a worker that does not allow it: failed, never sent.
  const { id } = await subscribe({});
  await call(t.api, t.key, 'POST', `/webhooks/${id}/test`);
  await worker({ allowHttp: true, allowPrivate: false }).runOnce();
  expect(receiver.received).toHaveLength(0);
  const log = await call(t.api, t.key, 'GET', `/webhooks/${id}/deliveries`);
  expect(log.body.data).toEqual([
    expect.objectContaining({ status: 'pending', attempts: 1, lastStatus: null, lastError: expect.stringMatching(/private address/) }),
  ]);
});

it('the webhook routes count against the per-minute limit, not the quota', async () => {
  const used = async () => ((await call(t.api, t.key, 'GET', '/usage')).body.data as { used: number }).used;
  const before = await used();
  const limitLeft: number[] = [];
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${t.api}/webhooks`, { headers: { 'x-api-key': t.key } });
    expect(response.status).toBe(200);
    limitLeft.push(Number(response.headers.get('x-ratelimit-remaining')));
  }
  // Each call took one of the minute's requests, and none of the month's.
  expect(limitLeft[1]).toBe((limitLeft[0] as number) - 1);
  expect(limitLeft[2]).toBe((limitLeft[0] as number) - 2);
  // A data route, for contrast, is counted: once its count is written (counts are written after the
  // answer, in order), the webhook calls made before it would show too, had they been counted.
  expect((await call(t.api, t.key, 'GET', '/currencies')).status).toBe(200);
  // Written in the background: waited for (up to 10 s), however long the write takes to land.
  const after = await waitFor(async () => {
    const now = await used();
    return now === before ? undefined : now;
  }, 'a change in the count after the data route');
  expect(after).toBe(before + 1);
});

it('a key has at most 10 subscriptions: the 11th is a 400 that says so; bad bodies are 400s naming the field', async () => {
  for (let i = 0; i < 10; i++) await subscribe({});
  const eleventh = await call(t.api, t.key, 'POST', '/webhooks', { url: receiver.url, events: ['rate.published'] });
  expect(eleventh).toMatchObject({ status: 400, body: { message: expect.stringMatching(/at most 10/) } });
  expect((await call(t.api, t.key, 'POST', '/webhooks', { url: receiver.url, events: ['rate.nope'] })).body.message).toMatch(/^events\.0/);
  expect((await call(t.api, t.key, 'POST', '/webhooks', { url: receiver.url, events: ['rate.published'], currency: 'XXX' })).body.message).toMatch(/^currency/);
  const list = await call(t.api, t.key, 'GET', '/webhooks');
  expect(list.body.data).toHaveLength(10);
  expect(JSON.stringify(list.body.data)).not.toContain('whsec_');
  const first = (list.body.data as Array<{ id: string }>)[0]?.id;
  expect((await call(t.api, t.key, 'DELETE', `/webhooks/${first}`)).status).toBe(204);
  expect((await call(t.api, t.key, 'DELETE', `/webhooks/${first}`)).status).toBe(404);
  // Another key sees none of them.
  const { key: other } = await createApiKeysStore(t.database.db).create({ name: 'other', plan: 'pro' });
  expect((await call(t.api, other, 'GET', '/webhooks')).body.data).toEqual([]);
});

it('two workers deliver each of many events exactly once, in creation order per subscription', async () => {
  const keys = await Promise.all([0, 1, 2].map((i) => createApiKeysStore(t.database.db).create({ name: `k${i}`, plan: 'pro' })));
  const ids: string[] = [];
  for (const { key } of keys) for (let i = 0; i < 10; i++) ids.push((await subscribe({}, key)).id);
  const store = createWebhooksStore(t.database.db);
  for (let round = 0; round < 3; round++) {
    for (const id of ids) await store.enqueueOne(id, `msg_${id}_${round}`, 'ping', JSON.stringify({ id: `msg_${id}_${round}`, round }), now);
  }
  const a = worker();
  const b = worker();
  await Promise.all([drain(a), drain(b)]);
  await Promise.all([drain(a), drain(b)]);
  const seen = receiver.received.map((r) => String(r.headers['webhook-id']));
  expect(seen).toHaveLength(ids.length * 3);
  expect(new Set(seen).size).toBe(ids.length * 3);
  for (const id of ids) expect(seen.filter((s) => s.startsWith(`msg_${id}_`))).toEqual([0, 1, 2].map((r) => `msg_${id}_${r}`));
});

it('a EUR subscription is told of the EUR record of a new day once both the dollar and the cross rate are stored, in either order', async () => {
  await sync(addDays(TODAY, -7), addDays(TODAY, -3));
  await subscribe({ currency: 'eur' });
  await subscribe({ currency: 'USD' });
  // The cross rate first, then the dollar's day: the official sync tells both.
  await t.seedCross([crossRate('EUR', addDays(TODAY, -2), 1.08)]);
  await sync(addDays(TODAY, -7), addDays(TODAY, -2));
  // The dollar's day first, then the cross rate: the currencies' sync tells EUR.
  await sync(addDays(TODAY, -7), addDays(TODAY, -1));
  const eur = derivedCurrency('EUR');
  if (!eur) throw new Error('EUR is in the catalog');
  await syncCurrencySpan(syncDeps(t.database.db, clock, changes), fakeCrossSource(fake).source, eur, { from: addDays(TODAY, -1), to: addDays(TODAY, -1) });
  await drain(worker());
  const events = receiver.received.map((r) => JSON.parse(r.body));
  expect(events.map((e) => [e.data.currencyFrom, e.data.date]).sort()).toEqual([
    ['EUR', addDays(TODAY, -2)],
    ['EUR', addDays(TODAY, -1)],
    ['USD', addDays(TODAY, -2)],
    ['USD', addDays(TODAY, -1)],
  ]);
  const eurDay = events.find((e) => e.data.currencyFrom === 'EUR' && e.data.date === addDays(TODAY, -2));
  expect((await t.get(`/exchange-rate?date=${addDays(TODAY, -2)}&currency=EUR`)).body.data).toEqual(eurDay.data);
});

it('monex.session: the MONEX store’s call in its transaction queues one event per subscriber', async () => {
  await subscribe({ events: ['monex.session'] });
  await subscribe({ events: ['rate.published'] });
  const session = {
    date: '2026-11-19',
    session: true,
    average: 483.69,
    min: 482.5,
    max: 485,
    volume: 12.75,
    volumeUnit: 'millones de USD',
    source: 'BCCR' as const,
    fetchedAt: now.toISOString(),
  };
  await t.database.db.transaction((trx) => enqueueMonexSessions(trx, [session], now));
  await drain(worker());
  expect(receiver.received.map((r) => JSON.parse(r.body))).toEqual([expect.objectContaining({ type: 'monex.session', data: session })]);
});

it('monex.session: a MONEX sync tells of each session stored in the last week, once; days without a session and older years tell nothing', async () => {
  await subscribe({ events: ['monex.session'] });
  const source = createMonexSourceFrom({ bccrToken: fake.token, bccrApiUrl: fake.sddeUrl, retries: 0, timeoutMs: 5000 });
  if (!source) throw new Error('a token gives a MONEX source');
  const span = { from: addDays(TODAY, -40), to: TODAY };
  const monexSync = () => catchUpMonex(syncDeps(t.database.db, clock, changes), source, { since: span.from, span });
  expect(await monexSync()).toMatchObject({ ok: true });
  await drain(worker());
  const stored = await createMonexStore(t.database.db).range(span.from, span.to);
  const news = stored.filter((day) => day.session && day.date >= addDays(TODAY, -NEWS_DAYS)).map(sessionOf);
  expect(news.length).toBeGreaterThanOrEqual(4);
  expect(stored.some((day) => !day.session && day.date >= addDays(TODAY, -NEWS_DAYS))).toBe(true); // a weekend, told nothing
  const events = receiver.received.map((r) => JSON.parse(r.body));
  expect(events.map((e) => [e.type, e.data])).toEqual(news.map((session) => ['monex.session', session]));
  // The same days read again change nothing and tell nothing.
  receiver.received.length = 0;
  expect(await monexSync()).toMatchObject({ ok: true });
  await drain(worker());
  expect(receiver.received).toHaveLength(0);
});

it('after 5 failed deliveries in a row the subscription is disabled, and GET /webhooks says so', async () => {
  const { id } = await subscribe({});
  for (let i = 0; i < 6; i++) await call(t.api, t.key, 'POST', `/webhooks/${id}/test`);
  receiver.answers.push(...Array.from({ length: 100 }, () => 503));
  const w = worker();
  for (let hour = 0; hour < 6 * 40 && (await t.database.db('webhook_subscriptions').where({ id }).first('disabled_at')).disabled_at === null; hour++) {
    await w.runOnce();
    now = new Date(now.getTime() + 3_600_000);
  }
  const list = (await call(t.api, t.key, 'GET', '/webhooks')).body.data as Array<{ disabled: boolean; consecutiveFailures: number }>;
  expect(list).toEqual([expect.objectContaining({ disabled: true, consecutiveFailures: 5 })]);
  const log = (await call(t.api, t.key, 'GET', `/webhooks/${id}/deliveries`)).body.data as Array<{ status: string; attempts: number }>;
  expect(log.map((d) => d.status)).toEqual(['pending', 'failed', 'failed', 'failed', 'failed', 'failed']);
  expect(log.slice(1).every((d) => d.attempts === 7)).toBe(true);
  // Nothing more is sent to a disabled subscription.
  const sent = receiver.received.length;
  now = new Date(now.getTime() + 48 * 3_600_000);
  expect(await w.runOnce()).toBe(0);
  expect(receiver.received).toHaveLength(sent);
});

it('metrics count deliveries by outcome and the queue; health notes a queue nobody delivers', async () => {
  const { id } = await subscribe({});
  const watched = await startTestApp({ database: t.database, clock, changes, metricsToken: 'operator-token' });
  try {
    const metrics = async () => (await (await fetch(`${watched.url}/metrics`, { headers: { authorization: 'Bearer operator-token' } })).text()).split('\n');
    await call(t.api, t.key, 'POST', `/webhooks/${id}/test`);
    await worker().runOnce();
    await call(t.api, t.key, 'POST', `/webhooks/${id}/test`);
    now = at(10);
    expect(await metrics()).toEqual(
      expect.arrayContaining([
        'crc_webhook_deliveries{status="delivered"} 1',
        'crc_webhook_deliveries{status="pending"} 1',
        'crc_webhook_queue_depth 1',
        'crc_webhook_oldest_due_seconds 600',
      ]),
    );
    const health = await watched.get('/health');
    expect(health.body.data).toMatchObject({
      reasons: expect.arrayContaining([expect.stringMatching(/^webhook deliveries are stuck: the oldest due one has waited 10 minutes/)]),
    });
  } finally {
    await watched.close();
  }
});

it('the SDK creates, lists, pings, reads the log of and deletes a subscription', async () => {
  const client = new ExchangeRateClient({ apiKey: t.key, baseUrl: t.api });
  const created = await client.createWebhook({ url: receiver.url, events: ['rate.published'], currency: 'EUR' });
  expect(created).toMatchObject({ url: receiver.url, currency: 'EUR', secret: expect.stringMatching(/^whsec_/) });
  expect(await client.listWebhooks()).toEqual([expect.objectContaining({ id: created.id, disabled: false })]);
  const ping = await client.testWebhook(created.id);
  await drain(worker());
  const event = await verifyWebhook(receiver.received[0]?.body ?? '', receiver.received[0]?.headers ?? {}, created.secret, { now });
  expect(event).toMatchObject({ id: ping.eventId, type: 'ping', data: { subscriptionId: created.id } });
  expect(await client.getWebhookDeliveries(created.id)).toEqual([expect.objectContaining({ id: ping.id, status: 'delivered' })]);
  expect(await client.retryWebhookDelivery(created.id, ping.id)).toMatchObject({ status: 'pending' });
  await client.deleteWebhook(created.id);
  await expect(client.deleteWebhook(created.id)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  await expect(client.createWebhook({ url: 'ftp://example.com', events: ['rate.published'] })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
});

it('a backfill of days older than a week, or before the latest stored day, tells nobody', async () => {
  await subscribe({});
  // An empty series filled from a month ago: only the last week's days are news.
  await sync(addDays(TODAY, -30), addDays(TODAY, -1));
  await drain(worker());
  const told = receiver.received.map((r) => JSON.parse(r.body).data.date).sort();
  expect(told).toEqual([-7, -6, -5, -4, -3, -2, -1].map((n) => addDays(TODAY, n)));
  // Older days filled in later are before the latest stored day.
  await sync(addDays(TODAY, -60), addDays(TODAY, -31));
  await drain(worker());
  expect(receiver.received).toHaveLength(7);
});
