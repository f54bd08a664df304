/**
 * /api/v1/health on a PostgreSQL server of its own, which the test stops and starts again: 503
 * within the promised second while it is down, back to 200 once it is up (same app, same pool),
 * and /livez answering throughout.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { addDays, calendarDay } from '../../../shared/dates';
import { createApp } from '../../../server/app';
import { createDatabase, type Database } from '../../../server/store/database';
import { migrate } from '../../../server/store/migrations';
import { createSyncRunsStore } from '../../../server/store/sync-runs';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { createResponseValidator, fetchJson, type OpenApiDocument, type ResponseValidator } from './support';

const run = promisify(execFile);
const BIN = '/usr/lib/postgresql/15/bin';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** A throwaway cluster run as the postgres user (the server refuses to run as root). */
class PrivatePostgres {
  readonly dataDir: string;
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {
    this.dataDir = path.join(dir, 'data');
  }

  static async create(): Promise<PrivatePostgres> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-health-pg-'));
    await run('chown', ['postgres:postgres', dir]);
    const pg = new PrivatePostgres(dir, await freePort());
    await pg.asPostgres(`${BIN}/initdb`, ['-D', pg.dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    return pg;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private asPostgres(command: string, args: string[]) {
    return run('runuser', ['-u', 'postgres', '--', command, ...args], { cwd: this.dir, timeout: 60_000 });
  }

  start() {
    const options = `-p ${this.port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    return this.asPostgres(`${BIN}/pg_ctl`, ['-D', this.dataDir, '-l', path.join(this.dir, 'log'), '-o', options, '-w', '-t', '30', 'start']);
  }

  stop() {
    return this.asPostgres(`${BIN}/pg_ctl`, ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }

  /** Stops it if it runs, and removes its files. */
  async destroy(): Promise<void> {
    await this.stop().catch(() => undefined);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

const DOWN = { success: false, message: 'Database unreachable', error: 'SERVICE_UNAVAILABLE' };

describe('health on a database that goes away and comes back', () => {
  let pg: PrivatePostgres | undefined;
  let db: Database | undefined;
  let t: TestApp | undefined;
  const today = calendarDay(new Date());

  const app = (): TestApp => {
    if (!t) throw new Error('app not started');
    return t;
  };
  const postgres = (): PrivatePostgres => {
    if (!pg) throw new Error('postgres not started');
    return pg;
  };
  let validator: ResponseValidator | undefined;
  /** What a monitor sends: no key. */
  const health = () => app().get('/health', { 'x-api-key': '' });

  beforeAll(async () => {
    // knex reports each failed connection on the console; here they are the point of the test.
    const log = console.log.bind(console);
    jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      if (!/^(Connection Error|Acquire connection error)/.test(String(args[0]))) log(...args);
    });
    pg = await PrivatePostgres.create();
    await pg.start();
    db = createDatabase({ databaseUrl: pg.url, dataDir: null });
    await migrate(db);
    t = await startTestApp({ database: { db, url: pg.url, drop: async () => undefined } });
    validator = createResponseValidator(await fetchJson<OpenApiDocument>(`${t.api}/openapi.json`));
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await db?.destroy();
    await pg?.destroy();
    jest.restoreAllMocks();
  }, 30_000);

  it('is degraded with no data, or data older than 3 days; ok with a fresh date', async () => {
    let res = await health();
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(
      expect.objectContaining({ status: 'degraded', reasons: ['no rate stored yet: no sync has run yet'], database: 'up', latestDate: null, lastSyncAt: null }),
    );

    await app().seed([rate(addDays(today, -4), 500, 506)]);
    res = await health();
    expect(res.body.data).toEqual(
      expect.objectContaining({
        status: 'degraded',
        reasons: [`latest official date ${addDays(today, -4)} is 4 days old`, 'no sync has run yet'],
        latestDate: addDays(today, -4),
      }),
    );

    await app().seed([rate(addDays(today, -3), 500, 506)]);
    res = await health();
    expect(res.body.data).toEqual(expect.objectContaining({ status: 'ok', latestDate: addDays(today, -3) }));

    const syncRuns = createSyncRunsStore(app().database.db);
    const finishedAt = new Date('2025-01-14T18:05:12.000Z');
    const id = await syncRuns.start({ kind: 'official', source: 'test', spanFrom: today, spanTo: today, startedAt: finishedAt });
    await syncRuns.finish(id, { status: 'succeeded', counts: { inserted: 1, updated: 0, rejected: 0, missing: 0 }, finishedAt });
    await app().seed([rate(today, 501, 507)]);
    res = await health();
    expect(res.status).toBe(200);
    expect(validator?.validate('/health', 200, res.body)).toEqual([]);
    expect(res.body).toEqual({
      success: true,
      data: {
        status: 'ok',
        reasons: [],
        database: 'up',
        latestDate: today,
        lastSyncAt: finishedAt.toISOString(),
        // No scheduler in this app: nothing planned.
        sync: { state: 'succeeded', error: null, finishedAt: finishedAt.toISOString(), nextAttemptAt: null },
        version: expect.any(String),
        uptimeSeconds: expect.any(Number),
      },
    });
  });

  it('answers 503 within 1.5 s while the server is stopped; /livez stays 200; back to 200 once it is up', async () => {
    await postgres().stop();
    // The database is asked at most once a second: the answer of the last second may still stand.
    await new Promise((resolve) => setTimeout(resolve, 1100));

    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const res = await health();
      const elapsed = performance.now() - started;
      expect(res.status).toBe(503);
      expect(res.body).toEqual(DOWN);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(elapsed).toBeLessThan(1500);
      // The document describes it.
      expect(validator?.validate('/health', 503, res.body)).toEqual([]);
    }

    const live = await fetch(`${app().url}/livez`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });

    await postgres().start();
    // Same app, same pool: it reconnects by itself. Bounded wait.
    const deadline = Date.now() + 15_000;
    let res = await health();
    while (res.status !== 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      res = await health();
    }
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expect.objectContaining({ status: 'ok', database: 'up', latestDate: today }));
    expect((await fetch(`${app().url}/livez`)).status).toBe(200);
  }, 40_000);

  it('answers 503 within 1.5 s when the server accepts connections but does not answer', async () => {
    // A listener that never speaks: connecting succeeds, the startup handshake hangs.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const hung = createDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, dataDir: null });
    const server = http.createServer(createApp({ db: hung, logger: pino({ level: 'silent' }) }).callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/api/v1/health`);
      expect(performance.now() - started).toBeLessThan(1500);
      expect([res.status, await res.json()]).toEqual([503, DOWN]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await hung.destroy().catch(() => undefined);
    }
  }, 20_000);
});
