/**
 * PGlite is one PostgreSQL session. Whoever uses it (this process's knex, or a client of the
 * shared socket) holds this lock from the first statement of a unit of work until the session is
 * idle again (outside a transaction), so that nobody's statements land inside someone else's
 * transaction. PGlite's own mutexes only keep single statements apart. First come, first served.
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

  const grant = (): Release => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = waiters.shift();
      if (next) next(grant());
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
