/**
 * A failed key lookup hides the key's hash but keeps what the error means: a database that cannot
 * be reached is still recognised as such (503 at the edge, not 500), down the whole cause chain.
 */
import net from 'node:net';
import { inspect } from 'node:util';
import { createApiKeysStore, hashKey, KEY_PREFIX } from '../../../server/store/api-keys';
import { createDatabase, type Database, isDatabaseUnreachable } from '../../../server/store/database';
import { migratedTemplate } from '../../helpers/database';

const KEY = `${KEY_PREFIX}${'A'.repeat(43)}`;
const HASH = hashKey(KEY);
const quiet = { warn: () => undefined, error: () => undefined, debug: () => undefined };

/** Everything a logger or a terminal could write of an error: message, stack, properties, causes. */
function written(error: unknown): string {
  return [inspect(error, { depth: 20, showHidden: true }), JSON.stringify(error, Object.getOwnPropertyNames(error as object))].join('\n');
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('a failed key lookup', () => {
  const pools: Database[] = [];
  afterAll(() => Promise.all(pools.map((db) => db.destroy())));

  it('against a database that is not there: recognised as unreachable, without the hash', async () => {
    const db = createDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${await closedPort()}/none`, dataDir: null, logger: quiet });
    pools.push(db);
    const error = await rejection(createApiKeysStore(db).lookup(KEY));
    expect(isDatabaseUnreachable(error)).toBe(true);
    expect(written(error)).not.toContain(HASH);
  });

  it('against a server that accepts connections and never answers: a timeout, recognised as unreachable', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const db = createDatabase({
        databaseUrl: `postgres://postgres@127.0.0.1:${(silent.address() as net.AddressInfo).port}/none`,
        dataDir: null,
        logger: quiet,
      });
      pools.push(db);
      const error = await rejection(createApiKeysStore(db).lookup(KEY));
      expect(isDatabaseUnreachable(error)).toBe(true);
      expect(written(error)).not.toContain(HASH);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('whose driver put the hash in the message, the properties and the cause: masked everywhere, still unreachable', async () => {
    const db = createDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', dataDir: null, logger: quiet });
    pools.push(db);
    // A driver failing mid-query, the way PGlite and knex report it: bindings attached and quoted.
    Object.assign(db.client, {
      acquireConnection: async () => ({}),
      releaseConnection: async () => undefined,
      _query: async (_connection: unknown, query: { sql: string; bindings: unknown[] }) => {
        const reset = Object.assign(new Error(`read ECONNRESET while sending ${String(query.bindings[0])}`), { code: 'ECONNRESET', syscall: 'read' });
        throw Object.assign(new Error(`${query.sql} - Connection terminated unexpectedly (${String(query.bindings[0])})`, { cause: reset }), {
          params: query.bindings,
          bindings: query.bindings,
        });
      },
    });
    const error = await rejection(createApiKeysStore(db).lookup(KEY));
    expect(written(error)).not.toContain(HASH);
    expect(written(error)).toContain('[key hash]');
    expect(isDatabaseUnreachable(error)).toBe(true);
    expect((error as Error).cause).toMatchObject({ code: 'ECONNRESET', message: 'read ECONNRESET while sending [key hash]' });
    expect(Object.keys(error as object)).not.toContain('params');
  });

  it('of a bad query stays a bad query (not unreachable), without the hash', async () => {
    const db = createDatabase({ databaseUrl: null, dataDir: null, initialData: await migratedTemplate() });
    pools.push(db);
    // The table is gone. PGlite attaches the query's parameters to its error.
    await db.raw('DROP TABLE api_keys CASCADE');
    const error = await rejection(createApiKeysStore(db).lookup(KEY));
    expect(isDatabaseUnreachable(error)).toBe(false);
    expect((error as { code?: string }).code).toBe('42P01');
    expect(written(error)).not.toContain(HASH);
  });
});
