/**
 * Change feeds that reach other instances: PostgreSQL LISTEN/NOTIFY on the shared database, and
 * Redis pub/sub as well when REDIS_URL is set. A process on PostgreSQL always announces and listens
 * there, whatever its REDIS_URL: `npm run keys -- revoke` run without REDIS_URL (or with another
 * one) still reaches every server. The local listeners hear their own instance's changes at once,
 * and a lost connection only delays remote notices (the response cache's and key cache's time
 * limits bound the staleness meanwhile).
 */
import { Client } from 'pg';
import { CHANGE_TOPICS, createTopics, feedOf, type ChangeFeed, type ChangeTopic } from './changes';
import type { Logger } from './logger';
import { CHANGES_CHANNEL, listenForChanges, notifyChange } from './store/notifications';

/** One way of announcing to other instances; what it hears goes to the feed's handler. */
interface Relay {
  publish(message: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Messages are `topic:sender:serial`. An instance ignores its own (it has told itself already),
 * and a notice that arrives over both Redis and PostgreSQL is acted on once: the second copy would
 * only forget the key cache again (harmless) or drop response caches again (cheap), but there is
 * no need to. An older sender's `topic:sender` is taken as it comes.
 */
export function messageHandler(topics: ReturnType<typeof createTopics>, instanceId: string) {
  const seen = new Set<string>();
  const REMEMBERED = 1000;
  return (payload: string | undefined) => {
    const [topic, sender, serial] = (payload ?? '').split(':', 3);
    if (sender === instanceId || !CHANGE_TOPICS.includes(topic as ChangeTopic)) return;
    if (serial !== undefined) {
      const id = `${sender}:${serial}`;
      if (seen.has(id)) return;
      seen.add(id);
      // A Set iterates in insertion order: the first is the oldest.
      if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as string);
    }
    topics.emit(topic as ChangeTopic);
  };
}

const newInstanceId = () => `${process.pid}-${Math.random().toString(36).slice(2)}`;

async function redisRelay(url: string, logger: Logger, deliver: (payload: string) => void): Promise<Relay> {
  // Loaded with REDIS_URL only: the commands and servers without it do not pay for it (about 55 ms).
  const { default: Redis } = await import('ioredis');
  const options = { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2000 };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  for (const client of [publisher, subscriber]) {
    client.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis change feed: connection problem'));
  }
  subscriber.on('message', (_channel: string, payload: string) => deliver(payload));
  subscriber.on('ready', () => {
    subscriber.subscribe(CHANGES_CHANNEL).catch((error: unknown) => logger.warn({ err: error }, 'redis change feed: subscribe failed'));
  });
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    // Listening before returning, so that no notice sent right after start is missed.
    await subscriber.subscribe(CHANGES_CHANNEL);
  } catch (error) {
    logger.warn({ err: error }, 'redis change feed: not connected yet; will retry in the background');
  }
  return {
    async publish(message) {
      await publisher.publish(CHANGES_CHANNEL, message).catch((error: unknown) => logger.warn({ err: error }, 'redis change feed: publish failed'));
    },
    async close() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}

async function postgresRelay(databaseUrl: string, logger: Logger, deliver: (payload: string | undefined) => void): Promise<Relay> {
  let client: Client | null = null;
  let closed = false;
  const closing = (error: unknown) => logger.debug({ err: error }, 'postgres change feed: error while closing a connection');
  const retry = () => {
    if (!closed) setTimeout(() => void connect(), 1000).unref();
  };

  const connect = async (): Promise<void> => {
    const next = new Client({ connectionString: databaseUrl });
    next.on('notification', (message) => deliver(message.payload));
    next.on('error', (error) => {
      logger.warn({ err: error.message }, 'postgres change feed: connection lost; reconnecting');
      client = null;
      next.end().catch(closing);
      retry();
    });
    try {
      await next.connect();
      await listenForChanges(next);
      client = next;
    } catch (error) {
      logger.warn({ err: error }, 'postgres change feed: cannot listen yet; retrying');
      await next.end().catch(closing);
      retry();
    }
  };
  await connect();

  return {
    async publish(message) {
      const sender = client ?? new Client({ connectionString: databaseUrl });
      try {
        if (sender !== client) await sender.connect();
        await notifyChange(sender, message);
      } catch (error) {
        logger.warn({ err: error }, 'postgres change feed: notify failed');
      } finally {
        if (sender !== client) await sender.end().catch(closing);
      }
    },
    async close() {
      closed = true;
      await client?.end().catch(closing);
    },
  };
}

/** A feed over every relay opened: each notice goes out on all of them, and is heard once. */
async function relayedFeed(open: ReadonlyArray<(deliver: (payload: string | undefined) => void) => Promise<Relay>>): Promise<ChangeFeed> {
  const topics = createTopics();
  const instanceId = newInstanceId();
  const deliver = messageHandler(topics, instanceId);
  const relays: Relay[] = [];
  try {
    for (const openRelay of open) relays.push(await openRelay(deliver));
  } catch (error) {
    for (const relay of relays) await relay.close();
    throw error;
  }
  let serial = 0;
  return feedOf(
    topics,
    async (topic) => {
      serial += 1;
      const message = `${topic}:${instanceId}:${serial}`;
      await Promise.all(relays.map((relay) => relay.publish(message)));
    },
    async () => {
      for (const relay of relays) await relay.close();
    },
  );
}

export function createRedisChangeFeed(url: string, logger: Logger): Promise<ChangeFeed> {
  return relayedFeed([(deliver) => redisRelay(url, logger, deliver)]);
}

export function createPostgresChangeFeed(databaseUrl: string, logger: Logger): Promise<ChangeFeed> {
  return relayedFeed([(deliver) => postgresRelay(databaseUrl, logger, deliver)]);
}

/** The feed of a process on PostgreSQL: LISTEN/NOTIFY always, and Redis pub/sub too when it has one. */
export function createRemoteChangeFeed(urls: { databaseUrl: string; redisUrl: string | null }, logger: Logger): Promise<ChangeFeed> {
  const { databaseUrl, redisUrl } = urls;
  return relayedFeed([
    (deliver) => postgresRelay(databaseUrl, logger, deliver),
    ...(redisUrl ? [(deliver: (payload: string | undefined) => void) => redisRelay(redisUrl, logger, deliver)] : []),
  ]);
}
