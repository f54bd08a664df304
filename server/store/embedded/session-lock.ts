/**
 * PGlite is one PostgreSQL session. Whoever uses it (this process's knex, or a client of the
 * shared socket) holds this lock from the first statement of a unit of work until the session is
 * idle again (outside a transaction), so that nobody's statements land inside someone else's
 * transaction. PGlite's own mutexes only keep single statements apart. First come, first served.
 *
 * PGlite runs a statement on this process's thread, and a promise chain hands the lock from one
 * holder to the next without a turn of the event loop: 300 statements queued at once (a lease for
 * each of 300 keys) ran back to back for 120–200 ms in which no request was read and no timer
 * fired. So the lock passes to the next waiter on the next turn of the event loop, and what
 * arrived meanwhile is served between two statements.
 */
import { KnexTimeoutError } from 'knex';

export type Release = () => void;

export interface SessionLock {
  /** Resolves with the function that gives the lock back; rejects with a KnexTimeoutError after `timeoutMs`. */
  acquire(timeoutMs: number): Promise<Release>;
  readonly held: boolean;
}

export function createSessionLock(): SessionLock {
  let held = false;
  const waiters: Array<(release: Release) => void> = [];

  /** To the first waiter still waiting when the event loop turns (one may time out meanwhile), else free. */
  const passOn = () => {
    const next = waiters.shift();
    if (next) next(grant());
    else held = false;
  };

  const grant = (): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Held until then, so that nobody overtakes the waiters.
      if (waiters.length > 0) setImmediate(passOn);
      else held = false;
    };
  };

  return {
    get held() {
      return held;
    },
    acquire(timeoutMs) {
      if (!held) {
        held = true;
        return Promise.resolve(grant());
      }
      return new Promise<Release>((resolve, reject) => {
        const waiter = (release: Release) => {
          clearTimeout(timer);
          resolve(release);
        };
        const timer = setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          // The name a pool timeout has, so it is reported like one (503, not 500).
          reject(new KnexTimeoutError(`The embedded database was busy for ${timeoutMs} ms (another client's transaction)`));
        }, timeoutMs);
        timer.unref();
        waiters.push(waiter);
      });
    },
  };
}
