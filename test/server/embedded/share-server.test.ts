/**
 * The socket the server shares its embedded database on, in one process: the same values come
 * back on both paths, and a transaction (the server's or a client's) is never interleaved with
 * anyone else's statements, though PGlite is a single session.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { connectEmbeddedServer, createDatabase, type Database } from '../../../server/store/database';
import { shareEmbedded } from '../../../server/store/embedded/open';
import { type EmbeddedShare, SOCKET_PORT } from '../../../server/store/embedded/share-server';

const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined };

let dir: string;
let owner: Database;
let client: Database;
let share: EmbeddedShare;
const notifications: Array<[string, string]> = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-share-'));
  owner = createDatabase({ databaseUrl: null, dataDir: dir, serves: true });
  await owner.raw('CREATE TABLE t (id bigserial PRIMARY KEY, day date NOT NULL, rate numeric(12, 2) NOT NULL, n bigint NOT NULL)');
  await owner.raw('LISTEN crc_test');
  share = await shareEmbedded(owner, quiet, (channel, payload) => notifications.push([channel, payload]));
  client = connectEmbeddedServer(dir, SOCKET_PORT, { logger: quiet });
}, 60_000);

afterAll(async () => {
  await client?.destroy();
  await share?.close();
  await owner?.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Whether a promise has settled after a moment. */
async function settled(work: Promise<unknown>, ms = 300): Promise<boolean> {
  let done = false;
  void work.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, ms));
  return done;
}

it('gives the same values on both paths: DATE as its string, NUMERIC and INT8 as numbers', async () => {
  await client('t').insert({ day: '2025-01-15', rate: '506.47', n: 42 });
  const viaSocket = await client('t').select('day', 'rate', 'n');
  const inProcess = await owner('t').select('day', 'rate', 'n');
  expect(viaSocket).toEqual([{ day: '2025-01-15', rate: 506.47, n: 42 }]);
  expect(inProcess).toEqual(viaSocket);
});

it("keeps the server's statements out of a client's transaction until it ends", async () => {
  const before = Number((await owner('t').count({ c: '*' }))[0]?.c);
  const trx = await client.transaction();
  await trx('t').insert({ day: '2025-01-16', rate: 1, n: 1 });
  const count = owner('t').count({ c: '*' });
  // Inside the client's transaction, the server would see (and could commit) its half-done work.
  expect(await settled(count)).toBe(false);
  await trx.commit();
  expect(Number((await count)[0]?.c)).toBe(before + 1);
});

it("keeps a client's statements out of the server's transaction until it ends", async () => {
  const trx = await owner.transaction();
  await trx('t').insert({ day: '2025-01-17', rate: 1, n: 1 });
  const read = client('t').where({ day: '2025-01-17' });
  expect(await settled(read)).toBe(false);
  await trx.rollback();
  expect(await read).toEqual([]);
});

it('rolls back what a client that vanished mid-transaction left open, and serves on', async () => {
  const raw = new Client({ host: dir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' });
  await raw.connect();
  await raw.query('BEGIN');
  await raw.query("INSERT INTO t (day, rate, n) VALUES ('2025-01-18', 1, 1)");
  await raw.end();
  expect(await owner('t').where({ day: '2025-01-18' })).toEqual([]);
  expect(await client('t').where({ day: '2025-01-18' })).toEqual([]);
});

it("hands the server a client's NOTIFY", async () => {
  await client.raw("SELECT pg_notify('crc_test', 'keys:someone')");
  expect(notifications).toContainEqual(['crc_test', 'keys:someone']);
});

it('answers a bad query with its error, and the connection goes on', async () => {
  await expect(client.raw('SELECT * FROM nowhere WHERE x = ?', [1])).rejects.toMatchObject({ code: '42P01' });
  expect((await client.raw('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
});
