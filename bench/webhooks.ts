/**
 * What webhooks cost: the write of a sync that stores a new day with 1,000 subscriptions to
 * `rate.published` (100 keys × 10: 1,000 outbox rows in the sync's transaction), against the same
 * write with none; and the deliveries per second of one worker to a receiver on 127.0.0.1.
 *
 *   npm run bench:webhooks        (DATABASE_URL names the PostgreSQL server, default 127.0.0.1)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { addDays } from '../shared/dates';
import { seal, sealKeyOf } from '../server/domain/webhooks/seal';
import { newSecret } from '../server/domain/webhooks/signature';
import { createWebhookWorker } from '../server/jobs/webhook-worker';
import { createApiKeysStore } from '../server/store/api-keys';
import type { Database } from '../server/store/database';
import { createRatesStore } from '../server/store/rates';
import { enqueueRateEvents, lastRevisionId } from '../server/store/webhook-events';
import { median } from './report';
import { createPrivateDatabase } from './setups';

const SUBSCRIPTIONS = 1000;
const FIRST_DAY = '2026-01-01';
const key = sealKeyOf('bench key of at least thirty-two characters');

/** One sync's write of `day`: the rate and its outbox rows, in one transaction; milliseconds and rows. */
async function writeDay(db: Database, day: string): Promise<{ ms: number; events: number }> {
  const started = performance.now();
  const events = await db.transaction(async (trx) => {
    const revisionsAfter = await lastRevisionId(trx);
    await createRatesStore(trx).upsert([{ date: day, buy: 500, sell: 506, source: 'BCCR', fetchedAt: new Date() }]);
    return enqueueRateEvents(trx, { newDates: [day], revisionsAfter }, new Date());
  });
  return { ms: performance.now() - started, events };
}

async function main(): Promise<void> {
  const database = await createPrivateDatabase(process.env.DATABASE_URL ?? undefined);
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    const { db } = database;
    let day = FIRST_DAY;
    const next = () => (day = addDays(day, 1));
    const without: number[] = [];
    for (let i = 0; i < 5; i++) without.push((await writeDay(db, next())).ms);

    const keys = createApiKeysStore(db);
    const rows = [];
    for (let k = 0; k < SUBSCRIPTIONS / 10; k++) {
      const { record } = await keys.create({ name: `bench ${k}`, plan: 'pro' });
      for (let s = 0; s < 10; s++) {
        rows.push({
          id: `wh_bench_${k}_${s}_padding`,
          key_id: record.id,
          url,
          events: ['rate.published'],
          currency: 'USD',
          secret_sealed: seal(key, newSecret()),
        });
      }
    }
    await db('webhook_subscriptions').insert(rows);
    const withSubs: number[] = [];
    let written = 0;
    for (let i = 0; i < 5; i++) {
      const { ms, events } = await writeDay(db, next());
      withSubs.push(ms);
      written += events;
    }
    console.log(
      `sync write of a new day: ${median(without).toFixed(1)} ms with no subscription, ${median(withSubs).toFixed(1)} ms with ${SUBSCRIPTIONS} (${written / 5} events written each; median of 5)`,
    );

    for (const perHost of [4, 16]) {
      const worker = createWebhookWorker({
        db,
        logger: pino({ level: 'silent' }),
        clock: () => new Date(),
        sealKey: key,
        policy: { allowHttp: true, allowPrivate: true },
        batch: 100,
        perHost,
      });
      const pending = Number((await db('webhook_deliveries').where({ status: 'pending' }).count('* as n').first())?.n ?? 0);
      const started = performance.now();
      let sent = 0;
      // Only the oldest pending delivery of a subscription is claimed at once: 1,000 a round at most.
      while (sent < Math.min(pending, 2000)) sent += await worker.runOnce();
      const seconds = (performance.now() - started) / 1000;
      console.log(`worker, at most ${perHost} requests per host: ${sent} deliveries in ${seconds.toFixed(2)} s = ${Math.round(sent / seconds)}/s`);
    }
  } finally {
    receiver.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
