/**
 * At most a few MCP requests of one key at a time in this instance. A request holds its body, the
 * answers of its tool calls and the answer it sends (up to about 1.2 MB for a full batch) until it
 * is done: without this bound, one key sending many at once could make the instance hold as many
 * of them as it cares to send. One more is refused at once (429, retry in a second) rather than
 * queued: a queue would hold the request all the same, and HTTP clients already retry a 429.
 */
import { LIMITS } from '../../shared/limits';
import { HttpError } from '../errors';

export function createInFlightLimit(max: number = LIMITS.mcp.inFlightPerKey) {
  const inFlight = new Map<number, number>();
  return {
    /** Counts one more request of the key, or refuses it; the function returned ends it (call it once). */
    enter(keyId: number): () => void {
      const count = inFlight.get(keyId) ?? 0;
      if (count >= max) {
        throw new HttpError('RATE_LIMITED', `At most ${max} MCP requests of one key at a time: wait for an answer before sending more`, {
          'Retry-After': '1',
        });
      }
      inFlight.set(keyId, count + 1);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        const left = (inFlight.get(keyId) ?? 1) - 1;
        if (left > 0) inFlight.set(keyId, left);
        else inFlight.delete(keyId);
      };
    },
  };
}
