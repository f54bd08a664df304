/**
 * Tells every part of a process (and, with Redis or PostgreSQL, every instance) that something
 * it keeps in memory changed in the database: rates (response caches are dropped right after a
 * sync), observations (a sync that read values again changed the provenance log, not the rates)
 * and keys (a revoked key stops working everywhere at once).
 */
import { EventEmitter } from 'node:events';

export type ChangeTopic = 'rates' | 'observations' | 'keys';
export const CHANGE_TOPICS: readonly ChangeTopic[] = ['rates', 'observations', 'keys'];

export interface ChangeFeed {
  /** Announce a change; resolves once it has been published. */
  ratesChanged(): Promise<void>;
  /** Listen for changes made here or elsewhere; returns the function that stops listening. */
  onRatesChanged(listener: () => void): () => void;
  /**
   * The provenance log changed: a sync read values, maybe the same ones again (a confirmation
   * moves `lastConfirmedAt` without touching the rates, so it does not announce `rates`).
   */
  observationsChanged(): Promise<void>;
  onObservationsChanged(listener: () => void): () => void;
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
    observationsChanged: () => announce('observations'),
    onObservationsChanged: (listener) => topics.on('observations', listener),
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
