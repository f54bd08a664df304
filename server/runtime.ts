/**
 * What every command (server, sync, keys) opens from the configuration: the logger, the migrated
 * database, the change feed and the upstream sources. One place, so they all agree.
 */
import type Redis from 'ioredis';
import type { ChangeFeed } from './changes';
import { createLocalChangeFeed } from './changes';
import { createEmbeddedClientFeed, createEmbeddedServerFeed } from './changes-embedded';
import { createRemoteChangeFeed } from './changes-remote';
import type { AppDeps } from './app';
import type { Config } from './config';
import { createLogger, type Logger } from './logger';
import { createCrossSource, createMonexSourceFrom, createOfficialSources, type CrossSource, type MonexSource, type OfficialSources } from './sources';
import { createHaciendaEuroSource, type HaciendaEuroSource } from './sources/hacienda-euro';
import { createVentanillaSource, type VentanillaSource } from './sources/ventanilla';
import { createDatabase, type Database, DEADLINES } from './store/database';
import { type EmbeddedDatabase, openEmbedded, shareEmbedded } from './store/embedded/open';
import { type EmbeddedShare, SocketPathTooLongError } from './store/embedded/share-server';
import { migrate } from './store/migrations';
import { listenForChanges } from './store/notifications';

export interface Runtime {
  config: Config;
  logger: Logger;
  /** Migrations, syncs and the commands: the long per-statement deadlines (DEADLINES.work). */
  db: Database;
  /**
   * The HTTP request path: the short deadlines (DEADLINES.request), so a database that is down or
   * hung is answered 503 in about a second. On the embedded database, the same instance as `db`.
   */
  requestDb: Database;
  changes: ChangeFeed;
  sources: OfficialSources;
  /** The other currencies' cross rates; null without BCCR_TOKEN (only the token API has them). */
  crossSource: CrossSource | null;
  /** MONEX (cuadro 219); null without BCCR_TOKEN, for the same reason. */
  monexSource: MonexSource | null;
  ventanilla: VentanillaSource;
  /** Hacienda's euro, today's provisional EUR sell (no token needed). */
  haciendaEuro: HaciendaEuroSource;
  /** The client that shares rate limits, when REDIS_URL is set. */
  redis: Redis | null;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /**
   * The server: it gets a request pool, and on the embedded database shares it on a socket in the
   * data folder, so that the commands run meanwhile connect to it instead of opening the files.
   */
  serve?: boolean;
}

export async function openRuntime(config: Config, logger: Logger = createLogger(config.logLevel), options: RuntimeOptions = {}): Promise<Runtime> {
  const serve = options.serve === true;
  const embedded: EmbeddedDatabase | null = config.databaseUrl ? null : await openEmbedded(config.dataDir, { serves: serve, logger });
  const db = embedded?.db ?? createDatabase({ databaseUrl: config.databaseUrl, dataDir: null, deadlines: DEADLINES.work, logger });
  const requestDb = serve && config.databaseUrl ? createDatabase({ databaseUrl: config.databaseUrl, dataDir: null, deadlines: DEADLINES.request, logger }) : db;
  let share: EmbeddedShare | null = null;
  let changes: ChangeFeed | null = null;
  try {
    await migrate(db);
    // On PostgreSQL every process announces and listens there, and on Redis too when it has one:
    // a command reaches every server whatever its REDIS_URL. The embedded database has one server,
    // which its commands reach through its socket.
    if (config.databaseUrl) changes = await createRemoteChangeFeed({ databaseUrl: config.databaseUrl, redisUrl: config.redisUrl }, logger);
    else if (embedded?.role === 'client') changes = createEmbeddedClientFeed(db, logger);
    else if (serve) {
      const server = createEmbeddedServerFeed();
      // The shared session listens, so a client's NOTIFY shows up in what PGlite answers it.
      await listenForChanges(db);
      share = await startSharing(db, logger, server.receive);
      changes = server.feed;
    } else changes = createLocalChangeFeed();
  } catch (error) {
    await share?.close();
    if (requestDb !== db) await requestDb.destroy();
    await db.destroy();
    throw error;
  }
  const sources = createOfficialSources({
    bccrToken: config.bccrToken ?? undefined,
    bccrApiUrl: config.bccrApiUrl,
    bccrSiteApiUrl: config.bccrSiteApiUrl,
    haciendaUrl: config.haciendaUrl,
  });
  const crossSource = createCrossSource({ bccrToken: config.bccrToken ?? undefined, bccrApiUrl: config.bccrApiUrl });
  const monexSource = createMonexSourceFrom({ bccrToken: config.bccrToken ?? undefined, bccrApiUrl: config.bccrApiUrl });
  // ioredis is loaded with REDIS_URL only: the commands and servers without it do not pay for it (about 55 ms).
  const redis = config.redisUrl ? (await import('./access/redis-client')).createLimiterRedis(config.redisUrl, logger) : null;
  const ventanilla = createVentanillaSource({ bccrToken: config.bccrToken ?? undefined, bccrApiUrl: config.bccrApiUrl, bccrSiteApiUrl: config.bccrSiteApiUrl });
  const haciendaEuro = createHaciendaEuroSource({ baseUrl: config.haciendaUrl });
  const feed = changes;
  return {
    config,
    redis,
    ventanilla,
    haciendaEuro,
    logger,
    db,
    requestDb,
    changes: feed,
    sources,
    crossSource,
    monexSource,
    async close() {
      await feed.close();
      redis?.disconnect();
      // The socket first: its clients are rolled back and let go before the database closes.
      await share?.close();
      if (requestDb !== db) await requestDb.destroy();
      await db.destroy();
    },
  };
}

/** A data folder too deep for a Unix socket path still serves; only the commands cannot share it. */
async function startSharing(db: Database, logger: Logger, receive: (channel: string, payload: string) => void): Promise<EmbeddedShare | null> {
  try {
    const share = await shareEmbedded(db, logger, receive);
    logger.debug({ socket: share.socketPath }, 'embedded database shared on a socket');
    return share;
  } catch (error) {
    if (!(error instanceof SocketPathTooLongError)) throw error;
    logger.warn({ err: error.message }, 'embedded database not shared: `npm run keys` and `npm run sync` cannot run while the server does');
    return null;
  }
}

/** What the app takes from the configuration and the runtime, the same for every process that serves. */
export function servingDeps(config: Config, runtime: Runtime): AppDeps {
  return {
    // Requests get the short database deadlines; syncs run on the long ones.
    db: runtime.requestDb,
    logger: runtime.logger,
    changes: runtime.changes,
    redis: runtime.redis,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    metricsToken: config.metricsToken,
    llm: config.llm,
    publicUrl: config.publicUrl,
    publishing: config.publishing,
    currenciesNeedToken: runtime.crossSource === null,
    monexNeedsToken: runtime.monexSource === null,
  };
}
