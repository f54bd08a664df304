/**
 * The official sync in words: the state of its last run and why it failed, as health tells it (in
 * full, for the operator) and the 404 of an empty series (without the failure's detail). Read
 * from the record of runs (sync_runs), so that every instance tells the same story whichever one
 * ran the sync; only the next attempt is this instance's own.
 */
import type { SyncState } from '../../shared/schemas';
import type { SyncRun, SyncRunsStore } from '../store/sync-runs';

export interface LastSync {
  state: SyncState;
  /**
   * Why it failed, in one line: the error of the last failed run and, when the run just before it
   * failed too and read another source (the central bank, then the Hacienda fallback), that one's
   * first. Null unless the state is `failed`.
   */
  error: string | null;
  /** When the last run ended: null while it runs, or when none ever ran. */
  finishedAt: string | null;
  /** No run of the official series came before this one: it is the first sync. */
  first: boolean;
}

export interface SyncView {
  /** The last run of the official series, from the database. */
  last(): Promise<LastSync>;
  /** When this instance's scheduler tries next; null without a scheduler or with nothing planned. */
  nextAttemptAt(): Date | null;
}

/** Runs looked at: a failed attempt is at most two (the central bank's, then the fallback's), and one more tells whether a run is the first. */
const LOOK_BACK = 3;
/** An error message longer than this is cut: it goes into a health answer and a 404 message. */
const MAX_ERROR_CHARS = 240;

/**
 * A message as one line of at most `max` characters, with any credentials of a URL it quotes
 * left out (`https://user:secret@host/…`): health is public, and upstream addresses come from
 * configuration.
 */
export function oneLine(text: string, max = MAX_ERROR_CHARS): string {
  const flat = text
    .replace(/\s+/g, ' ')
    .replace(/\/\/[^\s/@]+@/g, '//')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** What the last runs (newest first) say about the sync. */
export function lastSyncOf(runs: readonly SyncRun[]): LastSync {
  const [last] = runs;
  if (!last) return { state: 'never', error: null, finishedAt: null, first: true };
  const first = runs.length === 1;
  if (last.status !== 'failed') return { state: last.status, error: null, finishedAt: last.finishedAt, first };
  const failures = [last];
  const before = runs[1];
  if (before?.status === 'failed' && before.source !== last.source) failures.unshift(before);
  const error = failures.map((run) => oneLine(run.error ?? `${run.source}: failed without a message`)).join('; ');
  return { state: 'failed', error, finishedAt: last.finishedAt, first };
}

export function createSyncView(runs: SyncRunsStore, nextAttemptAt: () => Date | null = () => null): SyncView {
  return {
    last: async () => lastSyncOf(await runs.latest('official', LOOK_BACK)),
    nextAttemptAt,
  };
}

/**
 * Why no rate is stored yet, as an API client is told it (a 404's message): the same story as
 * `whyEmpty` without the failure's detail. That detail (upstream addresses, host names, system
 * error codes) is for the operator, who has it in the log and in /health; a client can act on
 * neither.
 */
export function whyEmptyForClients(last: LastSync): string {
  return last.state === 'failed' ? 'the last sync failed; the operator has been told' : whyEmpty(last);
}

/** Why no rate is stored yet, to follow "no rate stored yet: ", for the operator (health). */
export function whyEmpty(last: LastSync): string {
  switch (last.state) {
    case 'running':
      return last.first ? 'the first sync is running' : 'a sync is running';
    case 'failed':
      return `the last sync failed: ${last.error}`;
    case 'succeeded':
      return 'the last sync stored no rate';
    case 'never':
      return 'no sync has run yet';
  }
}
