/**
 * One knex instance for either driver: node-postgres when DATABASE_URL is set, the embedded
 * PGlite otherwise. Both are told to hand DATE back as the `YYYY-MM-DD` string it stores: the
 * default turns it into a local-midnight Date, which shifts the day in any zone west of UTC.
 */
import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { PGlite } from '@electric-sql/pglite';
import ClientPgLite from 'knex-pglite';
import { types as pgTypes } from 'pg';

const OID = { INT8: 20, DATE: 1082, NUMERIC: 1700 } as const;

/** NUMERIC rates carry 2 decimals and counts stay far below 2^53, so JS numbers hold them exactly. */
const parsers: Record<number, (value: string) => unknown> = {
  [OID.DATE]: (value) => value,
  [OID.NUMERIC]: (value) => Number(value),
  [OID.INT8]: (value) => Number(value),
};

export interface DatabaseOptions {
  /** A postgres:// URL, or null for the embedded database. */
  databaseUrl: string | null;
  /** Where the embedded database keeps its files; null keeps it in memory (tests). */
  dataDir: string | null;
  /** Where knex's own warnings go (it writes to the console otherwise). */
  logger?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

export type Database = Knex;

export function createDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    return knex({
      client: 'pg',
      ...knexLog(options.logger),
      connection: {
        connectionString: options.databaseUrl,
        // Per-connection parsers instead of pg's global registry, so nothing else is affected.
        types: {
          getTypeParser: (oid: number, format?: string) => parsers[oid] ?? pgTypes.getTypeParser(oid, format as 'text'),
        },
        connectionTimeoutMillis: 2000,
      },
      pool: { min: 0, max: 10 },
      acquireConnectionTimeout: 5000,
    });
  }
  const pglite = new PGlite({ dataDir: options.dataDir ?? undefined, parsers });
  if (options.dataDir) {
    const release = claimDataDir(options.dataDir);
    // Given back when the database is closed (knex destroy closes it), or at the latest on exit.
    process.once('exit', release);
    const close = pglite.close.bind(pglite);
    pglite.close = async () => {
      try {
        await close();
      } finally {
        release();
        process.off('exit', release);
      }
    };
  }
  return knex({
    ...knexLog(options.logger),
    client: ClientPgLite as unknown as typeof knex.Client,
    dialect: 'postgres',
    connection: () => ({ pglite }) as unknown as Knex.StaticConnectionConfig,
  });
}

export class DataDirInUseError extends Error {}

/**
 * The embedded database is one process's files: a second process opening them (a `keys` command
 * while `npm start` runs) would corrupt them. A pid file makes the second one stop with a clear
 * message instead.
 */
function claimDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const pidFile = path.join(dataDir, 'crc-rates.pid');
  try {
    const holder = Number(fs.readFileSync(pidFile, 'utf8'));
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new DataDirInUseError(
        `The embedded database in ${dataDir} is in use by process ${holder} (a running server?). Stop it first, or set DATABASE_URL to share a PostgreSQL server between processes.`,
      );
    }
  } catch (error) {
    if (error instanceof DataDirInUseError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.writeFileSync(pidFile, String(process.pid));
  return () => {
    if (fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') === String(process.pid)) fs.rmSync(pidFile);
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function knexLog(logger: DatabaseOptions['logger']): Pick<Knex.Config, 'log'> {
  if (!logger) return {};
  const text = (message: unknown) => (message instanceof Error ? message.message : String(message));
  return {
    log: {
      warn: (message: unknown) => logger.warn({ detail: text(message) }, 'database warning'),
      error: (message: unknown) => logger.error({ detail: text(message) }, 'database error'),
      deprecate: (method: string, alternative: string) => logger.debug({ method, alternative }, 'database deprecation'),
      debug: (message: unknown) => logger.debug({ detail: text(message) }, 'database debug'),
    },
  };
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** True for errors that mean the database server cannot be reached, as opposed to a bad query. */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (e.name === 'KnexTimeoutError' || (typeof code === 'string' && UNREACHABLE_CODES.has(code))) return true;
    if (/Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect/i.test(e.message)) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnreachable)) return true;
  }
  return false;
}

export function isEmbedded(db: Database): boolean {
  return db.client.config.client !== 'pg';
}
