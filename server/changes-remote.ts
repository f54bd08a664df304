/**
 * Change feeds that reach other instances: Redis pub/sub when REDIS_URL is set, otherwise
 * PostgreSQL LISTEN/NOTIFY on the shared database. Either way the local listeners hear their own
 * instance's changes at once, and a lost connection only delays remote notices (the response
 * cache's and key cache's time limits bound the staleness meanwhile).
 */
import Redis from 'ioredis';
import { Client } from 'pg';
import { CHANGE_TOPICS, createTopics, feedOf, type ChangeFeed, type ChangeTopic } from './changes';
import type { Logger } from './logger';

const CHANNEL = 'crc_rates_changes';

/** Messages are `topic:sender`, so an instance ignores its own (it has told itself already). */
function messageHandler(topics: ReturnType<typeof createTopics>, instanceId: string) {
  return (payload: string | undefined) => {
    const [topic, sender] = (payload ?? '').split(':', 2);
    if (sender !== instanceId && CHANGE_TOPICS.includes(topic as ChangeTopic)) topics.emit(topic as ChangeTopic);
  };
}

const newInstanceId = () => `${process.pid}-${Math.random().toString(36).slice(2)}`;

export async function createRedisChangeFeed(url: string, logger: Logger): Promise<ChangeFeed> {
  const topics = createTopics();
  const instanceId = newInstanceId();
  const options = { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  for (const client of [publisher, subscriber]) {
    client.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis change feed: connection problem'));
  }
  const handle = messageHandler(topics, instanceId);
  subscriber.on('message', (_channel: string, payload: string) => handle(payload));
  subscriber.on('ready', () => {
    subscriber.subscribe(CHANNEL).catch((error: unknown) => logger.warn({ err: error }, 'redis change feed: subscribe failed'));
  });
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    // Listening before returning, so that no notice sent right after start is missed.
    await subscriber.subscribe(CHANNEL);
  } catch (error) {
    logger.warn({ err: error }, 'redis change feed: not connected yet; will retry in the background');
  }
  return feedOf(
    topics,
    async (topic) => {
      await publisher.publish(CHANNEL, `${topic}:${instanceId}`).catch((error: unknown) => logger.warn({ err: error }, 'redis change feed: publish failed'));
    },
    async () => {
      publisher.disconnect();
      subscriber.disconnect();
    },
  );
}

export async function createPostgresChangeFeed(databaseUrl: string, logger: Logger): Promise<ChangeFeed> {
  const topics = createTopics();
  const instanceId = newInstanceId();
  const handle = messageHandler(topics, instanceId);
  let client: Client | null = null;
  let closed = false;
  const closing = (error: unknown) => logger.debug({ err: error }, 'postgres change feed: error while closing a connection');
  const retry = () => {
    if (!closed) setTimeout(() => void connect(), 1000).unref();
  };

  const connect = async (): Promise<void> => {
    const next = new Client({ connectionString: databaseUrl });
    next.on('notification', (message) => handle(message.payload));
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

  return feedOf(
    topics,
    async (topic) => {
      const sender = client ?? new Client({ connectionString: databaseUrl });
      try {
        if (sender !== client) await sender.connect();
        await sender.query('SELECT pg_notify($1, $2)', [CHANNEL, `${topic}:${instanceId}`]);
      } catch (error) {
        logger.warn({ err: error }, 'postgres change feed: notify failed');
      } finally {
        if (sender !== client) await sender.end().catch(closing);
      }
    },
    async () => {
      closed = true;
      await client?.end().catch(closing);
    },
  );
}
