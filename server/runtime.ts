/**
 * What every command (server, sync, keys) opens from the configuration: the logger, the migrated
 * database, the change feed and the upstream sources. One place, so they all agree.
 */
import Redis from 'ioredis';
import type { ChangeFeed } from './changes';
import { createLocalChangeFeed } from './changes';
import { createPostgresChangeFeed, createRedisChangeFeed } from './changes-remote';
import type { Config } from './config';
import { createLogger, type Logger } from './logger';
import { createOfficialSources } from './sources';
import { createVentanillaSource, type VentanillaSource } from './sources/ventanilla';
import { createDatabase, type Database } from './store/database';
import { migrate } from './store/migrations';
import type { OfficialSources } from './jobs/catch-up';

export interface Runtime {
  config: Config;
  logger: Logger;
  db: Database;
  changes: ChangeFeed;
  sources: OfficialSources;
  ventanilla: VentanillaSource;
  /** The client that shares rate limits, when REDIS_URL is set. */
  redis: Redis | null;
  close(): Promise<void>;
}

export async function openRuntime(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<Runtime> {
  const db = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? null : config.dataDir, logger });
  await migrate(db);
  const changes = config.redisUrl
    ? await createRedisChangeFeed(config.redisUrl, logger)
    : config.databaseUrl
      ? await createPostgresChangeFeed(config.databaseUrl, logger)
      : createLocalChangeFeed();
  const sources = createOfficialSources({
    bccrToken: config.bccrToken ?? undefined,
    bccrApiUrl: config.bccrApiUrl,
    bccrSiteApiUrl: config.bccrSiteApiUrl,
    haciendaUrl: config.haciendaUrl,
  });
  // Fail fast while Redis is away: the rate limiter then counts in memory instead of waiting.
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: 200, connectTimeout: 2000 })
    : null;
  redis?.on('error', (error: Error) => logger.debug({ err: error.message }, 'redis: connection problem'));
  const ventanilla = createVentanillaSource({ bccrToken: config.bccrToken ?? undefined, bccrApiUrl: config.bccrApiUrl, bccrSiteApiUrl: config.bccrSiteApiUrl });
  return {
    config,
    redis,
    ventanilla,
    logger,
    db,
    changes,
    sources,
    async close() {
      await changes.close();
      redis?.disconnect();
      await db.destroy();
    },
  };
}
