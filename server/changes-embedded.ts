/**
 * The change feed across processes on one embedded database (without Redis): a command connected
 * to the server's socket (`npm run keys -- revoke`, `npm run sync`) raises a NOTIFY on the shared
 * session, and the server, which LISTENs on it, reads the notification out of what PGlite answers
 * that client (./store/embedded/share-server.ts) and tells its own listeners: a revoked key stops
 * working at once rather than when the key cache's entry expires. Messages are `topic:sender`, as
 * on PostgreSQL.
 */
import { randomBytes } from 'node:crypto';
import { CHANGE_TOPICS, type ChangeFeed, type ChangeTopic, createTopics, feedOf } from './changes';
import type { Logger } from './logger';
import type { Database } from './store/database';
import { CHANGES_CHANNEL, notifyChange } from './store/notifications';

/** The server's side: its own changes stay in the process; notifications from clients come in through `receive`. */
export function createEmbeddedServerFeed(): { feed: ChangeFeed; receive(channel: string, payload: string): void } {
  const topics = createTopics();
  return {
    feed: feedOf(
      topics,
      async () => undefined,
      async () => undefined,
    ),
    receive(channel, payload) {
      const [topic] = payload.split(':', 1);
      if (channel === CHANGES_CHANNEL && CHANGE_TOPICS.includes(topic as ChangeTopic)) topics.emit(topic as ChangeTopic);
    },
  };
}

/** A command's side: it only announces (it is gone before anyone else would tell it something). */
export function createEmbeddedClientFeed(db: Database, logger: Logger): ChangeFeed {
  const sender = `${process.pid}-${randomBytes(4).toString('hex')}`;
  return feedOf(
    createTopics(),
    async (topic) => {
      await notifyChange(db, `${topic}:${sender}`).catch((error: unknown) => {
        logger.warn({ err: error }, 'embedded change feed: notify failed; the server notices when its caches expire');
      });
    },
    async () => undefined,
  );
}
