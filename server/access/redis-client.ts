/**
 * The Redis client the rate limiters share, built one way for the server and its tests. It fails
 * at once while disconnected (no offline queue, no retries), so a Redis that is down costs a
 * request nothing. It sets no short command timeout: that is a timer too, and a busy event loop
 * would fire it on commands Redis had long answered; a Redis that stays silent is told apart by
 * redis-silence.ts instead. The long timeout only frees commands a frozen Redis never answers.
 *
 * The commands sent within one turn of the event loop (every limiter call of the requests read
 * together) leave in one write and come back in one read, instead of a syscall each way per
 * request: the client corks its socket at the turn's first command and uncorks it once the turn's
 * callbacks have run (setImmediate). Each call is still its own atomic script, answered in order,
 * so the count stays exact (test/server/access/write-batching.test.ts).
 *
 * ioredis's own auto-pipelining batches the same way, but it builds a Pipeline object for every
 * turn, and V8 keeps each one past its young generation (one per request at a realistic rate, when
 * no two requests share a turn). At 1,000 requests a second those pipelines were two thirds of
 * everything the server promoted to its old generation: it filled several times as fast, and
 * each full collection it brought on stalled the event loop for tens of milliseconds.
 */
import type { Socket } from 'node:net';
import Redis from 'ioredis';
import type { Logger } from '../logger';

export const ABANDONED_COMMAND_MS = 10_000;

type Command = Parameters<Redis['sendCommand']>[0];
type CommandStream = Parameters<Redis['sendCommand']>[1];

/**
 * Holds `socket`'s writes until the callbacks of this turn have run, then sends them in one write.
 * Only this client corks its socket, so a corked one is already held for the turn.
 */
function holdWritesForTheTurn(socket: Socket | undefined): void {
  if (!socket || socket.writableCorked > 0) return;
  socket.cork();
  setImmediate(() => socket.uncork());
}

class TurnBatchedRedis extends Redis {
  override sendCommand(command: Command, stream?: CommandStream): unknown {
    // No socket before the first connection, whatever the type says; ioredis refuses the command.
    holdWritesForTheTurn(this.stream);
    return super.sendCommand(command, stream);
  }
}

export function createLimiterRedis(url: string, logger: Logger): Redis {
  const redis = new TurnBatchedRedis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: ABANDONED_COMMAND_MS,
    connectTimeout: 2000,
  });
  // Connection errors are expected while Redis is away; the limiter says so once, in its own words.
  redis.on('error', (error: Error) => logger.debug({ err: error.message }, 'redis: connection problem'));
  return redis;
}
