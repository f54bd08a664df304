/**
 * Shared pieces of the access-control tests: raw HTTP with any method and headers, keys made
 * straight in the store, a second instance's own pool on the same database, private Redis servers
 * that a test may kill and restart, and a bounded wait.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type Redis from 'ioredis';
import pino from 'pino';
import { createLimiterRedis } from '../../../server/access/redis-client';
import type { ApiBody } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/database';
import { createApiKeysStore, KEY_PREFIX, type ApiKey } from '../../../server/store/api-keys';
import { createDatabase, type Database } from '../../../server/store/database';
import type { PlanId } from '../../../shared/plans';

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else null (see `text`). */
  body: ApiBody | null;
  text: string;
  /** Wall time from sending to the whole body received. */
  ms: number;
}

export async function send(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, init);
  const text = await response.text();
  const ms = performance.now() - started;
  const json = (response.headers.get('content-type') ?? '').includes('application/json');
  return { status: response.status, headers: response.headers, body: json && text ? (JSON.parse(text) as ApiBody) : null, text, ms };
}

/** Just the statuses, counted: `{ 200: 50, 429: 150 }`. */
export function tally(answers: readonly Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

export function headerNumber(answer: Answer, name: string): number {
  const value = answer.headers.get(name);
  if (value === null || !/^\d+$/.test(value)) throw new Error(`${name} is not a whole number: ${String(value)}`);
  return Number(value);
}

export async function createKey(
  db: Database,
  options: { name?: string; plan?: PlanId; monthlyQuota?: number; ratePerMinute?: number } = {},
): Promise<{ key: string; record: ApiKey }> {
  return createApiKeysStore(db).create({
    name: options.name ?? 'access test',
    plan: options.plan ?? 'custom',
    monthlyQuota: options.monthlyQuota,
    ratePerMinute: options.ratePerMinute,
  });
}

/** A key that has the right shape but was never issued. */
export const unknownKey = (): string => KEY_PREFIX + randomBytes(32).toString('base64url');

/**
 * The database as a second instance of the service would reach it: its own pool on PostgreSQL,
 * the same (single-connection) embedded database otherwise. `close` ends only what it opened.
 */
export function secondInstanceDatabase(database: TestDatabase): TestDatabase & { close(): Promise<void> } {
  if (!database.url) return { ...database, close: async () => undefined };
  const db = createDatabase({ databaseUrl: database.url, dataDir: null });
  return { db, url: database.url, drop: () => db.destroy(), close: () => db.destroy() };
}

/**
 * Key ids start at 1 in every test database, and the rate limiter names a key by its id: on a
 * Redis shared with other test files, start them somewhere nobody else is.
 */
export async function uniqueKeyIds(db: Database): Promise<void> {
  const start = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
  await db.raw(`ALTER SEQUENCE api_keys_id_seq RESTART WITH ${start}`);
}

/** Polls `check` every 25 ms until it holds, failing with `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One PING over a raw socket: true when a Redis server answers on `port`. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (chunk) => done(chunk.toString().startsWith('+PONG')));
  });
}

/** A client built as the server builds its own: fail fast instead of queueing while Redis is away. */
export function redisClient(url: string): Redis {
  return createLimiterRedis(url, pino({ level: 'silent' }));
}

/** A private, throwaway redis-server this test starts, kills and starts again on the same port. */
export class PrivateRedis {
  private process: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    if (this.process) throw new Error('already running');
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.process = child;
    child.once('exit', () => {
      if (this.process === child) this.process = null;
    });
    await until(`redis-server answers on port ${this.port}`, () => pings(this.port));
  }

  /** SIGSTOP: the server keeps its connections but answers nothing, as a hung one would. */
  freeze(): void {
    if (!this.process) throw new Error('not running');
    this.process.kill('SIGSTOP');
  }

  /** SIGCONT: the frozen server answers again, with what was sent meanwhile. */
  thaw(): void {
    if (!this.process) throw new Error('not running');
    this.process.kill('SIGCONT');
  }

  /** SIGKILL, as a crash would: no goodbye to the clients. Resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.process;
    if (!child) return;
    this.process = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
