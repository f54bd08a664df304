import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from '../server/app';
import { createApiKeysStore } from '../server/store/api-keys';
import { createRatesStore } from '../server/store/rates';
import { createTestDatabase } from '../test/helpers/database';
process.on('SIGINT', () => process.exit(0));
(async () => {
  const database = await createTestDatabase();
  await createRatesStore(database.db).upsert([{ date: '2025-01-15', buy: 500, sell: 510, source: 'BCCR', fetchedAt: new Date() }]);
  const { key } = await createApiKeysStore(database.db).create({ name: 'b', plan: 'custom', monthlyQuota: 2e9, ratePerMinute: 1e8 });
  const app = createApp({ db: database.db, logger: pino({ level: 'silent' }) });
  const server = http.createServer(app.callback());
  server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: (server.address() as AddressInfo).port, key, pid: process.pid }) + '\n'));
})();
