/**
 * The settings `npm run demo` runs with: the user's own for what only shapes the answers (PORT,
 * PUBLIC_URL, CORS_ORIGINS, LOG_LEVEL, …), fixed ones for where the data comes from and goes.
 * DATABASE_URL, REDIS_URL and DATA_DIR are replaced, never honoured: a shell set up for
 * production must not get simulated rows written into the real database.
 */
import type { FakeUpstream } from './bccr-upstream';

type Env = Record<string, string | undefined>;

/** The shell's database settings the demo replaces (DATA_DIR aside, which it sets to its own folder). */
const REPLACED_SETTINGS = ['DATABASE_URL', 'REDIS_URL'] as const;

/** Those of the replaced settings this shell has set: a command meant for the demo has to clear them. */
export function ignoredSettings(env: Env): string[] {
  return REPLACED_SETTINGS.filter((name) => env[name]?.trim());
}

export function demoEnvironment(env: Env, upstream: Pick<FakeUpstream, 'token' | 'sddeUrl' | 'siteUrl' | 'haciendaUrl'>, dataDir: string): Env {
  return {
    ...env,
    DATABASE_URL: '',
    REDIS_URL: '',
    DATA_DIR: dataDir,
    // The same settings that point the real sources at the central bank. With a token the sync
    // takes the SDDE route, a year per request: the whole history arrives in seconds.
    BCCR_TOKEN: upstream.token,
    BCCR_API_URL: upstream.sddeUrl,
    BCCR_SITE_API_URL: upstream.siteUrl,
    HACIENDA_URL: upstream.haciendaUrl,
    // Not used: the simulated bank publishes no new day while it runs, so the demo syncs once.
    SYNC_CRON: 'off',
    // Warnings only unless asked, so the key and its curl line are not lost among the sync's logs.
    LOG_LEVEL: env.LOG_LEVEL?.trim() ? env.LOG_LEVEL : 'warn',
  };
}
