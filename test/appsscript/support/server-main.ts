/**
 * Runs in the worker of server-worker.cjs: the real app on an embedded database (or a private
 * PostgreSQL one when DATABASE_URL is set) with known rates (the dollar's, and the euro's and the
 * yen's cross rates), a window snapshot and five keys.
 * Requests from the main thread arrive as messages and are answered through a SharedArrayBuffer
 * the main thread waits on (Atomics), which is what lets UrlFetchApp's shim be synchronous.
 */
import { parentPort } from 'node:worker_threads';
import { createApiKeysStore } from '../../../server/store/api-keys';
import { createBankingStore } from '../../../server/store/banking';
import { crossRate, rate, startTestApp } from '../../helpers/app';
import { addDays } from '../../../shared/dates';
import { createMonexStore } from '../../../server/store/monex';
import { allCrossRates, allDays, INSTITUTIONS, LAST, MONEX_FIRST, monexOf, quoteOf } from './fixtures';
import { writeReply, type WorkerRequest, type FetchReply } from './sync-channel';

async function fetchOne(request: { url: string; headers: Record<string, string> }): Promise<FetchReply> {
  try {
    const response = await fetch(request.url, { headers: request.headers, redirect: 'manual' });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { status: response.status, headers, body: await response.text() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { error: cause?.code ?? String(error) };
  }
}

async function main(): Promise<void> {
  const app = await startTestApp();
  await app.seed(allDays().map((d) => rate(d, quoteOf(d).buy, quoteOf(d).sell)));
  await app.seedCross(allCrossRates().map((c) => crossRate(c.currency, c.date, c.value)));
  await createBankingStore(app.database.db).saveDay({
    date: LAST,
    source: 'bccr-site',
    fetchedAt: new Date(`${LAST}T15:00:00Z`),
    institutions: INSTITUTIONS.map(({ id, name, type }) => ({ id, name, type, known: true })),
    quotes: INSTITUTIONS.map(({ id, buy, sell }) => ({ institutionId: id, buy, sell, updatedAt: new Date(`${LAST}T14:30:00Z`) })),
  });
  const monex = [];
  for (let d = MONEX_FIRST; d <= LAST; d = addDays(d, 1)) {
    const f = monexOf(d);
    monex.push({
      date: d,
      session: f !== null,
      average: f?.average ?? null,
      min: f?.min ?? null,
      max: f?.max ?? null,
      volume: f?.volume ?? null,
      volumeUnit: 'Millones de dólares',
      source: 'BCCR' as const,
      fetchedAt: new Date(`${d}T19:00:00Z`),
    });
  }
  await createMonexStore(app.database.db).writeSessions(monex);
  const keys = createApiKeysStore(app.database.db);
  const tiny = await keys.create({ name: 'tiny quota', plan: 'custom', monthlyQuota: 1, ratePerMinute: 1_000 });
  const revocable = await keys.create({ name: 'to revoke', plan: 'pro' });
  const slow = await keys.create({ name: 'one per minute', plan: 'custom', monthlyQuota: 1_000, ratePerMinute: 1 });
  const once = await keys.create({ name: 'one request, for the last known good copy', plan: 'custom', monthlyQuota: 1, ratePerMinute: 1_000 });

  let stopped = false;
  parentPort!.on('message', (message: WorkerRequest) => {
    void (async () => {
      let reply: unknown;
      try {
        if (message.type === 'fetch') reply = await Promise.all(message.requests.map(fetchOne));
        else if (message.type === 'revoke') {
          reply = await keys.revoke(revocable.record.id, new Date());
          // As `npm run keys -- revoke` does: tell every instance, whose key lookups may be cached.
          await (app.changes as { keysChanged?: () => Promise<void> }).keysChanged?.();
        } else if (message.type === 'stop') {
          // The server goes away and its address refuses connections; the worker stays to answer fetches with that.
          if (!stopped) await app.close();
          stopped = true;
          reply = true;
        }
      } catch (error) {
        reply = { workerError: String(error) };
      }
      writeReply(message.buffer, reply);
    })();
  });
  parentPort!.postMessage({
    type: 'ready',
    api: app.api,
    keys: { main: app.key, tiny: tiny.key, revocable: revocable.key, slow: slow.key, once: once.key },
  });
}

main().catch((error) => parentPort!.postMessage({ type: 'failed', error: String(error?.stack ?? error) }));
