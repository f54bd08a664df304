/**
 * Tells every part of a process (and, with Redis, every instance) that stored rates changed, so
 * response caches are dropped right after a sync instead of waiting for them to expire.
 */
import { EventEmitter } from 'node:events';

export interface ChangeFeed {
  /** Announce a change; resolves once it has been published. */
  ratesChanged(): Promise<void>;
  /** Listen for changes made here or elsewhere; returns the function that stops listening. */
  onRatesChanged(listener: () => void): () => void;
  close(): Promise<void>;
}

export function createLocalChangeFeed(): ChangeFeed {
  const emitter = new EventEmitter();
  return {
    async ratesChanged() {
      emitter.emit('rates');
    },
    onRatesChanged(listener) {
      emitter.on('rates', listener);
      return () => emitter.off('rates', listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
