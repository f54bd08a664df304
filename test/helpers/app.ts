/** The whole app in-process on a real database, listening on a free port, for tests over HTTP. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp, type App, type AppDeps } from '../../server/app';
import { createLocalChangeFeed, type ChangeFeed } from '../../server/changes';
import { createApiKeysStore } from '../../server/store/api-keys';
import { createCrossRatesStore, type CrossInput } from '../../server/store/cross-rates';
import { createRatesStore, type RateInput, type RatesStore } from '../../server/store/rates';
import { createTestDatabase, type TestDatabase } from './database';

export interface ApiBody {
  success: boolean;
  data?: unknown;
  message?: string;
  error?: string;
}

export interface TestApp {
  app: App;
  url: string;
  api: string;
  database: TestDatabase;
  rates: RatesStore;
  changes: ChangeFeed;
  /** Writes rows through the store and announces the change, as a sync does. */
  seed(rows: readonly RateInput[]): Promise<void>;
  /** Writes cross rates against the dollar and announces the change, as the currencies' sync does. */
  seedCross(rows: readonly CrossInput[]): Promise<void>;
  /** A key with limits far above what a test reaches, sent by `get` unless told otherwise. */
  key: string;
  /**
   * GET under /api/v1 with `key` (pass `{ 'x-api-key': '' }` to send none, or another key);
   * the body is parsed JSON (cast `data` to the shared types to read into it), null for an answer
   * that is not JSON (a page: read `text`).
   */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: ApiBody; text: string }>;
  close(): Promise<void>;
}

export async function startTestApp(options: Partial<AppDeps> & { database?: TestDatabase } = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const changes = options.changes ?? createLocalChangeFeed();
  // Listening first, so the app can be told the address it is reached at.
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const app = createApp({ logger: pino({ level: 'silent' }), publicUrl: url, ...options, db: database.db, changes });
  server.on('request', app.callback());
  const rates = createRatesStore(database.db);
  const { key } = await createApiKeysStore(database.db).create({ name: 'test', plan: 'custom', monthlyQuota: 1_000_000_000, ratePerMinute: 1_000_000 });
  return {
    key,
    app,
    url,
    api: `${url}/api/v1`,
    database,
    rates,
    changes,
    async seed(rows) {
      await rates.upsert(rows);
      await changes.ratesChanged();
    },
    async seedCross(rows) {
      await createCrossRatesStore(database.db).upsert(rows);
      await changes.ratesChanged();
    },
    async get(path, headers = {}) {
      const merged: Record<string, string> = { 'x-api-key': key, ...headers };
      if (merged['x-api-key'] === '') delete merged['x-api-key'];
      const response = await fetch(`${url}/api/v1${path}`, { headers: merged });
      const text = await response.text();
      const json = /json/.test(response.headers.get('content-type') ?? '');
      return { status: response.status, headers: response.headers, body: text && json ? JSON.parse(text) : null, text };
    },
    async close() {
      await app.release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.database) await database.drop();
    },
  };
}

/** A cross rate against the dollar as published (the catalog's direction), fetched at the same fixed time. */
export function crossRate(currency: string, date: string, value: number): CrossInput {
  return { currency, date, value, source: 'BCCR', fetchedAt: new Date('2025-01-14T18:05:12.000Z') };
}

/** A row of the official series, with a fixed fetch time so answers are reproducible. */
export function rate(date: string, buy: number, sell: number, source: 'BCCR' | 'Hacienda' = 'BCCR'): RateInput {
  return { date, buy, sell, source, fetchedAt: new Date('2025-01-14T18:05:12.000Z') };
}
