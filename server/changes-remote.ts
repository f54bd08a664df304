/**
 * Change feeds that reach other instances: Redis pub/sub when REDIS_URL is set, otherwise
 * PostgreSQL LISTEN/NOTIFY on the shared database. Either way the local listeners hear their own
 * instance's changes at once, and a lost connection only delays remote notices (the response
 * cache's time limit bounds the staleness meanwhile).
 */
import { EventEmitter } from 'node:events';
import Redis from 'ioredis';
import { Client } from 'pg';
import type { ChangeFeed } from './changes';
import type { Logger } from './logger';

const CHANNEL = 'crc_rates_changes';

function localEmitter() {
  const emitter = new EventEmitter();
  return {
    emit: () => emitter.emit('rates'),
    on(listener: () => void) {
      emitter.on('rates', listener);
      return () => void emitter.off('rates', listener);
    },
    clear: () => emitter.removeAllListeners(),
  };
}

export async function createRedisChangeFeed(url: string, logger: Logger): Promise<ChangeFeed> {
  const local = localEmitter();
  const options = { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  for (const client of [publisher, subscriber]) {
    client.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis change feed: connection problem'));
  }
  subscriber.on('message', (_channel: string, sender: string) => {
    if (sender !== instanceId) local.emit();
  });
  subscriber.on('ready', () => {
    subscriber.subscribe(CHANNEL).catch((error: unknown) => logger.warn({ err: error }, 'redis change feed: subscribe failed'));
  });
  const instanceId = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    // Listening before returning, so that no notice sent right after start is missed.
    await subscriber.subscribe(CHANNEL);
  } catch (error) {
    logger.warn({ err: error }, 'redis change feed: not connected yet; will retry in the background');
  }
  return {
    async ratesChanged() {
      local.emit();
      await publisher.publish(CHANNEL, instanceId).catch((error: unknown) => logger.warn({ err: error }, 'redis change feed: publish failed'));
    },
    onRatesChanged: local.on,
    async close() {
      local.clear();
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

export async function createPostgresChangeFeed(databaseUrl: string, logger: Logger): Promise<ChangeFeed> {
  const local = localEmitter();
  const instanceId = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  let client: Client | null = null;
  let closed = false;
  const closing = (error: unknown) => logger.debug({ err: error }, 'postgres change feed: error while closing a connection');
  const retry = () => {
    if (!closed) setTimeout(() => void connect(), 1000).unref();
  };

  const connect = async (): Promise<void> => {
    const next = new Client({ connectionString: databaseUrl });
    next.on('notification', (message) => {
      if (message.payload !== instanceId) local.emit();
    });
    next.on('error', (error) => {
      logger.warn({ err: error.message }, 'postgres change feed: connection lost; reconnecting');
      client = null;
      next.end().catch(closing);
      retry();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      client = next;
    } catch (error) {
      logger.warn({ err: error }, 'postgres change feed: cannot listen yet; retrying');
      await next.end().catch(closing);
      retry();
    }
  };
  await connect();

  return {
    async ratesChanged() {
      local.emit();
      const sender = client ?? new Client({ connectionString: databaseUrl });
      try {
        if (sender !== client) await sender.connect();
        await sender.query('SELECT pg_notify($1, $2)', [CHANNEL, instanceId]);
      } catch (error) {
        logger.warn({ err: error }, 'postgres change feed: notify failed');
      } finally {
        if (sender !== client) await sender.end().catch(closing);
      }
    },
    onRatesChanged: local.on,
    async close() {
      closed = true;
      local.clear();
      await client?.end().catch(closing);
    },
  };
}
