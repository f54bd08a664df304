/**
 * Tells every part of a process (and, with Redis or PostgreSQL, every instance) that something
 * it keeps in memory changed in the database: rates (response caches are dropped right after a
 * sync) and keys (a revoked key stops working everywhere at once).
 */
import { EventEmitter } from 'node:events';

export type ChangeTopic = 'rates' | 'keys';
export const CHANGE_TOPICS: readonly ChangeTopic[] = ['rates', 'keys'];

export interface ChangeFeed {
  /** Announce a change; resolves once it has been published. */
  ratesChanged(): Promise<void>;
  /** Listen for changes made here or elsewhere; returns the function that stops listening. */
  onRatesChanged(listener: () => void): () => void;
  keysChanged(): Promise<void>;
  onKeysChanged(listener: () => void): () => void;
  close(): Promise<void>;
}

/** The in-process half every feed shares: listeners per topic. */
export function createTopics() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit: (topic: ChangeTopic) => void emitter.emit(topic),
    on(topic: ChangeTopic, listener: () => void) {
      emitter.on(topic, listener);
      return () => void emitter.off(topic, listener);
    },
    clear: () => void emitter.removeAllListeners(),
  };
}

/** Builds a feed from a way to announce a topic to other instances (nothing, for a single process). */
export function feedOf(topics: ReturnType<typeof createTopics>, publish: (topic: ChangeTopic) => Promise<void>, close: () => Promise<void>): ChangeFeed {
  const announce = async (topic: ChangeTopic) => {
    topics.emit(topic);
    await publish(topic);
  };
  return {
    ratesChanged: () => announce('rates'),
    onRatesChanged: (listener) => topics.on('rates', listener),
    keysChanged: () => announce('keys'),
    onKeysChanged: (listener) => topics.on('keys', listener),
    async close() {
      topics.clear();
      await close();
    },
  };
}

export function createLocalChangeFeed(): ChangeFeed {
  return feedOf(
    createTopics(),
    async () => undefined,
    async () => undefined,
  );
}
