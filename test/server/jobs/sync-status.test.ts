/**
 * The sync in words, on records of runs alone: the last run's state, its error in one line (the
 * central bank's and the fallback's when both failed), and what health and an empty series' 404
 * say of it.
 */
import { healthReasons } from '../../../server/http/routes/health';
import { attemptFailure } from '../../../server/jobs/scheduler';
import type { SyncSummary } from '../../../server/jobs/sync-run';
import { type LastSync, lastSyncOf, oneLine, whyEmpty, whyEmptyForClients } from '../../../server/jobs/sync-status';
import type { SyncRun } from '../../../server/store/sync-runs';

const SITE_DOWN = 'bccr-site: network error on http://127.0.0.1:9/SDDE/api/csrf: fetch failed: connect ECONNREFUSED 127.0.0.1:9 (gave up after 4 attempts)';
const HACIENDA_DOWN = 'hacienda: network error on http://127.0.0.1:9/indicadores/tc/dolar: fetch failed: connect ECONNREFUSED 127.0.0.1:9';

let nextId = 100;
const run = (over: Partial<SyncRun>): SyncRun => ({
  id: nextId--,
  kind: 'official',
  source: 'bccr-site',
  spanFrom: '2025-01-08',
  spanTo: '2025-01-16',
  status: 'succeeded',
  startedAt: '2025-01-15T18:00:00.000Z',
  finishedAt: '2025-01-15T18:00:05.000Z',
  inserted: 0,
  updated: 0,
  rejected: 0,
  missing: 0,
  error: null,
  ...over,
});

describe('lastSyncOf (runs newest first)', () => {
  it('is never without runs', () => {
    expect(lastSyncOf([])).toEqual({ state: 'never', error: null, finishedAt: null, first: true });
  });

  it('is running, the first sync when no run came before', () => {
    expect(lastSyncOf([run({ status: 'running', finishedAt: null })])).toEqual({ state: 'running', error: null, finishedAt: null, first: true });
    expect(lastSyncOf([run({ status: 'running', finishedAt: null }), run({ status: 'failed', error: SITE_DOWN })])).toEqual({
      state: 'running',
      error: null,
      finishedAt: null,
      first: false,
    });
  });

  it('is succeeded with when it ended', () => {
    expect(lastSyncOf([run({ finishedAt: '2025-01-15T18:30:04.000Z' }), run({ status: 'failed', error: SITE_DOWN })])).toEqual({
      state: 'succeeded',
      error: null,
      finishedAt: '2025-01-15T18:30:04.000Z',
      first: false,
    });
  });

  it('tells the central bank’s error before the fallback’s when both failed', () => {
    const runs = [
      run({ source: 'hacienda', status: 'failed', error: HACIENDA_DOWN, finishedAt: '2025-01-15T18:00:09.000Z' }),
      run({ status: 'failed', error: SITE_DOWN }),
      run({ status: 'failed', error: 'bccr-site: an older failure' }),
    ];
    expect(lastSyncOf(runs)).toEqual({ state: 'failed', error: `${SITE_DOWN}; ${HACIENDA_DOWN}`, finishedAt: '2025-01-15T18:00:09.000Z', first: false });
  });

  it('tells one error when the run before succeeded, or failed on the same source', () => {
    expect(lastSyncOf([run({ status: 'failed', error: SITE_DOWN }), run({ source: 'hacienda' })]).error).toBe(SITE_DOWN);
    expect(lastSyncOf([run({ status: 'failed', error: SITE_DOWN }), run({ status: 'failed', error: 'bccr-site: HTTP 500' })]).error).toBe(SITE_DOWN);
    expect(lastSyncOf([run({ status: 'failed', error: null })]).error).toBe('bccr-site: failed without a message');
  });
});

describe('oneLine', () => {
  it('flattens whitespace, drops the credentials of a URL, and cuts long text', () => {
    expect(oneLine('parse error:\n  at line 1\n\tcolumn 2 ')).toBe('parse error: at line 1 column 2');
    expect(oneLine('bccr-sdde: HTTP 500 from https://user:s3cret@proxy.example/api: oops')).toBe('bccr-sdde: HTTP 500 from https://proxy.example/api: oops');
    expect(oneLine('x'.repeat(300))).toBe(`${'x'.repeat(239)}…`);
    expect(oneLine('abcdef', 4)).toBe('abc…');
  });
});

describe('whyEmpty', () => {
  const last = (over: Partial<LastSync>): LastSync => ({ state: 'never', error: null, finishedAt: null, first: true, ...over });
  it('says what the sync is doing about an empty series', () => {
    expect(whyEmpty(last({ state: 'running' }))).toBe('the first sync is running');
    expect(whyEmpty(last({ state: 'running', first: false }))).toBe('a sync is running');
    expect(whyEmpty(last({ state: 'failed', error: SITE_DOWN, first: false }))).toBe(`the last sync failed: ${SITE_DOWN}`);
    expect(whyEmpty(last({ state: 'succeeded' }))).toBe('the last sync stored no rate');
    expect(whyEmpty(last({}))).toBe('no sync has run yet');
  });
});

describe('whyEmptyForClients', () => {
  const last = (over: Partial<LastSync>): LastSync => ({ state: 'never', error: null, finishedAt: null, first: true, ...over });
  it('tells an API client the same story without the failure’s detail', () => {
    expect(whyEmptyForClients(last({ state: 'failed', error: SITE_DOWN, first: false }))).toBe('the last sync failed; the operator has been told');
    expect(whyEmptyForClients(last({ state: 'running' }))).toBe('the first sync is running');
    expect(whyEmptyForClients(last({ state: 'succeeded' }))).toBe('the last sync stored no rate');
    expect(whyEmptyForClients(last({}))).toBe('no sync has run yet');
  });
});

describe('healthReasons', () => {
  const failed: LastSync = { state: 'failed', error: SITE_DOWN, finishedAt: '2025-01-15T18:00:05.000Z', first: false };
  const running: LastSync = { state: 'running', error: null, finishedAt: null, first: true };
  const succeeded: LastSync = { state: 'succeeded', error: null, finishedAt: '2025-01-15T18:00:05.000Z', first: false };
  const never: LastSync = { state: 'never', error: null, finishedAt: null, first: true };

  it('explains an empty series by the sync', () => {
    expect(healthReasons(null, '2025-01-15', running)).toEqual(['no rate stored yet: the first sync is running']);
    expect(healthReasons(null, '2025-01-15', failed)).toEqual([`no rate stored yet: the last sync failed: ${SITE_DOWN}`]);
  });

  it('gives the age of stale data, then what the sync is doing', () => {
    expect(healthReasons('2025-01-10', '2025-01-15', failed)).toEqual(['latest official date 2025-01-10 is 5 days old', `the last sync failed: ${SITE_DOWN}`]);
    expect(healthReasons('2025-01-10', '2025-01-15', running)).toEqual(['latest official date 2025-01-10 is 5 days old', 'a sync is running']);
    expect(healthReasons('2025-01-10', '2025-01-15', never)).toEqual(['latest official date 2025-01-10 is 5 days old', 'no sync has run yet']);
    expect(healthReasons('2025-01-11', '2025-01-15', succeeded)).toEqual(['latest official date 2025-01-11 is 4 days old']);
  });

  it('has none while the data is at most 3 days old, whatever the sync did', () => {
    expect(healthReasons('2025-01-12', '2025-01-15', failed)).toEqual([]);
    expect(healthReasons('2025-01-15', '2025-01-15', never)).toEqual([]);
  });
});

describe('attemptFailure', () => {
  const summary = (over: Partial<SyncSummary>): SyncSummary => ({
    status: 'succeeded',
    source: 'bccr-site',
    from: '1983-01-01',
    to: '1983-12-31',
    inserted: 0,
    updated: 0,
    rejected: [],
    missing: [],
    ...over,
  });

  it('names the failed source and its error, and the fallback’s when it failed too', () => {
    const site = summary({ status: 'failed', error: SITE_DOWN });
    expect(attemptFailure({ ran: true, ok: false, runs: [site], unfilled: [] })).toEqual({ source: 'bccr-site', error: SITE_DOWN });
    expect(
      attemptFailure({ ran: true, ok: false, runs: [site, summary({ source: 'hacienda', status: 'failed', error: `${HACIENDA_DOWN}\n` })], unfilled: [] }),
    ).toEqual({ source: 'bccr-site', error: SITE_DOWN, fallback: { source: 'hacienda', error: HACIENDA_DOWN } });
    expect(attemptFailure({ ran: true, ok: false, runs: [site, summary({ source: 'hacienda', inserted: 1 })], unfilled: [] })).toEqual({
      source: 'bccr-site',
      error: SITE_DOWN,
    });
  });
});
