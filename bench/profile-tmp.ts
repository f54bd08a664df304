import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import pino from 'pino';
import { createApp } from '../server/app';
import { createApiKeysStore } from '../server/store/api-keys';
import { createRatesStore } from '../server/store/rates';
import { createTestDatabase } from '../test/helpers/database';

async function main() {
  const database = await createTestDatabase();
  await createRatesStore(database.db).upsert([{ date: '2025-01-15', buy: 500, sell: 510, source: 'BCCR', fetchedAt: new Date() }]);
  const { key } = await createApiKeysStore(database.db).create({ name: 'b', plan: 'custom', monthlyQuota: 2e9, ratePerMinute: 1e8 });
  const app = createApp({ db: database.db, logger: pino({ level: 'silent' }) });
  const server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const path = process.argv[2] ?? '/api/v1/exchange-rate/latest';
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    connections: 10,
    duration: Number(process.argv[3] ?? 4),
    headers: { 'x-api-key': key },
  });
  console.log('rps', Math.round(r.requests.average), 'non2xx', r.non2xx);
  server.close();
  process.exit(0);
}
main();
