/**
 * One knex instance for either driver: node-postgres when DATABASE_URL is set, the embedded
 * PGlite otherwise (or, while a server holds the embedded database, node-postgres on the socket
 * it shares it on: see ./embedded/). Both are told to hand DATE back as the `YYYY-MM-DD` string
 * it stores: the default turns it into a local-midnight Date, which shifts the day in any zone
 * west of UTC.
 *
 * Every call on PostgreSQL has a deadline (see DEADLINES), so that a database that is down or
 * hung fails a request in about a second (503) instead of holding it.
 */
import { PGlite } from '@electric-sql/pglite';
import knex, { type Knex } from 'knex';
import { types as pgTypes } from 'pg';
import { claimDataDir } from './embedded/claim';
import { keepPrivate } from './embedded/private-files';
import { sessionLockedClient } from './embedded/knex-client';
import { createSessionLock, type SessionLock } from './embedded/session-lock';

export { DataDirInUseError } from './embedded/claim';

const OID = { INT8: 20, DATE: 1082, NUMERIC: 1700 } as const;

/** NUMERIC rates carry 2 decimals and counts stay far below 2^53, so JS numbers hold them exactly. */
const parsers: Record<number, (value: string) => unknown> = {
  [OID.DATE]: (value) => value,
  [OID.NUMERIC]: (value) => Number(value),
  [OID.INT8]: (value) => Number(value),
};

export interface Deadlines {
  /** Waiting for a free connection of the pool. */
  acquireMs: number;
  /** Opening a connection (TCP and the startup exchange). */
  connectMs: number;
  /**
   * Server side (statement_timeout): PostgreSQL cancels a statement that runs longer, with SQLSTATE
   * 57014, and the connection stays usable. Shorter than readMs, so a slow statement is cancelled
   * by the server before the client gives up on it.
   */
  statementMs: number;
  /**
   * Client side (node-postgres query_timeout): a statement with no answer at all by then fails, and
   * its connection is closed. This is what catches a hung server (one that accepts connections and
   * never answers), which no server-side setting can.
   */
  readMs: number;
}

export const DEADLINES = {
  /**
   * Serving a request: every statement on the request path is an indexed read or a one-row write
   * of milliseconds, so one that has had no answer in a second means a database that is down,
   * hung or overloaded, answered 503 rather than holding the client.
   */
  request: { acquireMs: 1000, connectMs: 800, statementMs: 750, readMs: 1000 },
  /**
   * Migrations, syncs and the operator's commands. Their biggest statement, a 500-row chunk of the
   * backfill's upsert with the month summaries its trigger refreshes, takes some 25 ms on an idle
   * PostgreSQL (16,000 rows, 32 statements, under half a second in all); deadlines are per statement,
   * so a long backfill is never cut as a whole, while 30 s still stops a runaway statement and a
   * hung server fails a scheduled sync in well under a minute.
   */
  work: { acquireMs: 5000, connectMs: 2000, statementMs: 30_000, readMs: 35_000 },
} as const satisfies Record<string, Deadlines>;

type Logger = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void; debug(obj: object, msg: string): void };

export interface DatabaseOptions {
  /** A postgres:// URL, or null for the embedded database. */
  databaseUrl: string | null;
  /** Where the embedded database keeps its files; null keeps it in memory (tests). */
  dataDir: string | null;
  /**
   * For an embedded database in memory: the files to start from, as PGlite's `dumpDataDir()`
   * wrote them, instead of an empty database. Tests start each database from one migrated copy.
   */
  initialData?: Blob;
  /** Deadlines on PostgreSQL; the request path's unless said otherwise. No effect on the embedded database. */
  deadlines?: Deadlines;
  /** Whether this process will share the embedded database on its socket (a server does). */
  serves?: boolean;
  /** Where knex's own warnings go (it writes to the console otherwise). */
  logger?: Logger;
}

export type Database = Knex;

export interface EmbeddedHandle {
  pglite: PGlite;
  lock: SessionLock;
  dataDir: string | null;
}

const embeddedHandles = new WeakMap<Database, EmbeddedHandle>();

/** The PGlite instance behind an embedded database and the lock its users take, or null on PostgreSQL. */
export function embeddedHandle(db: Database): EmbeddedHandle | null {
  return embeddedHandles.get(db) ?? null;
}

export function createDatabase(options: DatabaseOptions): Database {
  if (options.databaseUrl) {
    return postgresDatabase({ connectionString: options.databaseUrl }, options.deadlines ?? DEADLINES.request, options.logger, true);
  }
  return embeddedDatabase(options);
}

/**
 * node-postgres on the socket a server shares its embedded database on (./embedded/share-server.ts):
 * the same driver, parsers and client-side deadlines as on PostgreSQL. No server-side settings are
 * sent: the session is the server's too, and PGlite ignores them anyway.
 */
export function connectEmbeddedServer(socketDir: string, port: number, options: Pick<DatabaseOptions, 'deadlines' | 'logger'> = {}): Database {
  return postgresDatabase({ host: socketDir, port, user: 'postgres', database: 'postgres' }, options.deadlines ?? DEADLINES.work, options.logger, false);
}

interface RawPgConnection {
  query(...args: unknown[]): unknown;
  end(): Promise<void>;
}

function postgresDatabase(target: Knex.PgConnectionConfig, deadlines: Deadlines, logger: Logger | undefined, serverTimeouts: boolean): Database {
  return knex({
    client: 'pg',
    ...knexLog(logger),
    connection: {
      ...target,
      // Per-connection parsers instead of pg's global registry, so nothing else is affected.
      types: {
        getTypeParser: (oid: number, format?: string) => parsers[oid] ?? pgTypes.getTypeParser(oid, format as 'text'),
      },
      connectionTimeoutMillis: deadlines.connectMs,
      query_timeout: deadlines.readMs,
      ...(serverTimeouts ? { statement_timeout: deadlines.statementMs } : {}),
    } as Knex.PgConnectionConfig,
    pool: {
      min: 0,
      max: 10,
      afterCreate: (connection: RawPgConnection, done: (error: Error | null, connection: RawPgConnection) => void) => {
        closeOnReadTimeout(connection);
        done(null, connection);
      },
    },
    acquireConnectionTimeout: deadlines.acquireMs,
  });
}

const READ_TIMEOUT = 'Query read timeout';

/**
 * After a read timeout the connection is still waiting for the unanswered statement, and any
 * statement sent on it would queue behind that one. So it is closed at once (node-postgres then
 * drops the socket, as a statement is still outstanding) and marked for knex's pool to throw away
 * (`__knex__disposed`, the mark knex itself sets on a connection that errored) before the failed
 * query hands it back: the next request opens a fresh connection instead of waiting on this one.
 */
function closeOnReadTimeout(connection: RawPgConnection): void {
  const query = connection.query.bind(connection);
  connection.query = (...args: unknown[]) => {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback !== 'function') return query(...args);
    args[last] = (error: unknown, result: unknown) => {
      if (error instanceof Error && error.message === READ_TIMEOUT) {
        Object.assign(connection, { __knex__disposed: error });
        connection.end().catch((closeError: unknown) => void closeError); // the socket is destroyed either way; nothing to report
      }
      (callback as (error: unknown, result: unknown) => void)(error, result);
    };
    return query(...args);
  };
}

/**
 * PostgreSQL's default cache of 128 MB, allocated in full inside PGlite's memory as it opens, is
 * what most of the embedded database's memory was. The whole database is a few tens of MB, and
 * the embedded server answers reads from memory (rates-in-memory.ts): 16 MB cuts the process's
 * memory by some 165 MB.
 */
const EMBEDDED_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

function embeddedDatabase(options: DatabaseOptions): Database {
  const { dataDir } = options;
  // Claimed before PGlite opens the files: a second PGlite on them is what corrupts a database.
  const claim = dataDir ? claimDataDir(dataDir, options.serves === true) : null;
  // Its modes are the holder's to repair: a process refused above has not touched the folder.
  const repaired = dataDir ? keepPrivate(dataDir) : 0;
  if (repaired > 0)
    options.logger?.warn({ dataDir, repaired }, 'the embedded data folder was readable by other users: its folders are now 700 and its files 600');
  let pglite: PGlite;
  try {
    pglite = new PGlite({ dataDir: dataDir ?? undefined, loadDataDir: options.initialData, parsers, startParams: EMBEDDED_START_PARAMS });
  } catch (error) {
    claim?.release();
    throw error;
  }
  if (claim && dataDir) {
    // What PGlite wrote as it started, made private as soon as it is written (private-files.ts).
    pglite.waitReady.then(
      () => keepPrivate(dataDir),
      () => undefined, // a start that failed is reported by the first query, which waits for it too
    );
    // Given back when the database is closed (knex destroy closes it), or at the latest on exit.
    const release = () => claim.release();
    process.once('exit', release);
    const close = pglite.close.bind(pglite);
    pglite.close = async () => {
      try {
        await close();
        keepPrivate(dataDir);
      } finally {
        release();
        process.off('exit', release);
      }
    };
  }
  const lock = createSessionLock();
  const db = knex({
    ...knexLog(options.logger),
    client: sessionLockedClient(lock, pglite),
    dialect: 'postgres',
    connection: () => ({ pglite }) as unknown as Knex.StaticConnectionConfig,
  });
  embeddedHandles.set(db, { pglite, lock, dataDir: options.dataDir });
  return db;
}

function knexLog(logger: Logger | undefined): Pick<Knex.Config, 'log'> {
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
  'ENETUNREACH',
  'ENOTFOUND',
  'EPIPE',
  // query_canceled: statement_timeout (or an operator's pg_cancel_backend). On the request path
  // that is a database too slow to answer right now: 503, and the client may retry.
  '57014',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** What node-postgres and knex say when the server is gone, silent, or the connection died. */
const UNREACHABLE_MESSAGES =
  /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|timeout expired|Query read timeout|Client has encountered a connection error and is not queryable|Client was closed and is not queryable/i;

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  syscall?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** Read by shape, not `instanceof Error`: Node's socket errors come from another realm than the code's own under jest. */
function asErrorLike(value: unknown): ErrorLike | null {
  return typeof value === 'object' && value !== null && 'message' in value ? (value as ErrorLike) : null;
}

/** True for errors that mean the database server cannot be reached (or answer in time), as opposed to a bad query. */
export function isDatabaseUnreachable(error: unknown): boolean {
  // A chain is a few links long; the bound only guards against a cycle.
  let e = asErrorLike(error);
  for (let depth = 0; e && depth < 10; depth++, e = asErrorLike(e.cause)) {
    const { code } = e;
    if (e.name === 'KnexTimeoutError' || (typeof code === 'string' && UNREACHABLE_CODES.has(code))) return true;
    // A socket file that is not there: the server sharing the embedded database has stopped.
    if (code === 'ENOENT' && e.syscall === 'connect') return true;
    if (typeof e.message === 'string' && UNREACHABLE_MESSAGES.test(e.message)) return true;
    if (Array.isArray(e.errors) && e.errors.some(isDatabaseUnreachable)) return true;
  }
  return false;
}

export function isEmbedded(db: Database): boolean {
  return db.client.config.client !== 'pg';
}
