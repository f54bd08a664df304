/**
 * Tells a Redis that does not answer from a process that is too busy to read the answer. A timer
 * on a command's promise cannot: under a burst of requests the event loop runs the timer before it
 * reads the sockets, so the deadline of a command Redis answered in microseconds passes all the
 * same, and the request would be counted in this instance's memory instead of the shared count.
 *
 * So the deadline only starts a look: after the loop's poll phase (setImmediate), once whatever
 * arrived meanwhile has been read, a command still waiting fails only if the connection has
 * received nothing at all since it was sent (or since the last look). Redis answers in order, so
 * bytes arriving mean it is alive and working through the queue: wait one more deadline.
 *
 * The deadline starts once the command has left: the limiter's client writes the commands of a
 * turn of the loop together, from a setImmediate queued when the first of them was issued
 * (redis-client.ts). Started any earlier, a burst that kept the loop busy past the deadline would
 * have its look run right after that write, before any poll phase could read Redis's answer.
 */
import type { Socket } from 'node:net';
import type Redis from 'ioredis';

export class RedisSilentError extends Error {
  constructor(silenceMs: number) {
    super(`Redis has sent nothing for ${silenceMs} ms`);
    this.name = 'RedisSilentError';
  }
}

/** Everything the client's connection has received so far (0 before it has one). */
function bytesReceived(redis: Redis): number {
  const stream = redis.stream as Socket | undefined;
  return stream?.bytesRead ?? 0;
}

/** `call` (a command just sent on `redis`), or a rejection once Redis has said nothing for `silenceMs`. */
export function unlessRedisIsSilent<T>(redis: Redis, call: Promise<T>, silenceMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let heard = 0;
    let timer: NodeJS.Timeout | undefined;
    const look = () =>
      setImmediate(() => {
        if (settled) return;
        const now = bytesReceived(redis);
        if (now === heard) {
          settled = true;
          reject(new RedisSilentError(silenceMs));
          return;
        }
        heard = now;
        timer = setTimeout(look, silenceMs);
      });
    // Queued after the client's own setImmediate, so it runs once the command is written.
    setImmediate(() => {
      if (settled) return;
      heard = bytesReceived(redis);
      timer = setTimeout(look, silenceMs);
    });
    call.then(
      (value) => {
        settled = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        settled = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
